import { Injectable } from '@nestjs/common';
import {
  DeactivateKeysRequestDto,
  DeactivateKeysResponseDto,
  deactivateKeysTargetMissing,
  GenerateKeysRequestDto,
  GenerateKeysResponseDto,
  KeyInfoResponseDto,
} from '@sift/api-contracts';
import { generateApiKey, hashApiKey, TeamService as TeamRules } from '@sift/auth';
import { BillingService } from '@sift/billing';
import { ApiKeyRecord, ApiKeyRepository, ProjectRepository } from '@sift/persistence';
import { ApiError } from '../http/api-error';
import { CallerAuthentication } from '../caller/caller-authentication.service';
import { KeyedCaller, keyedCaller, RequestContext, responseTimeSeconds } from '../caller/request-context';
import { teamActorOf, underTeamRules } from '../team/team-rules';

const ENTERPRISE_PLAN = 'enterprise';

/**
 * Enterprise key management: create, deactivate and inspect the organisation's keys. Every key acts as its member
 * (or, without one, as the operator); what a key may create, see or deactivate is decided by @sift/auth's team rules.
 */
@Injectable()
export class KeysService {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly projects: ProjectRepository,
    private readonly billing: BillingService,
    private readonly authentication: CallerAuthentication,
    private readonly team: TeamRules,
  ) {}

  async generate(context: RequestContext, body: GenerateKeysRequestDto): Promise<GenerateKeysResponseDto> {
    const caller = this.enterpriseCaller(context);
    const grant = await underTeamRules(() =>
      this.team.authorizeNewKeys(teamActorOf(caller), caller, { memberId: body.member_id, environment: body.environment, creditLimit: body.credit_limit }),
    );
    const project = body.project_id ? await this.projects.findOrCreate(caller.accountId, body.project_id) : null;
    const keys = [];
    for (let index = 0; index < body.count; index += 1) {
      const generated = generateApiKey(body.environment);
      const record = await this.apiKeys.create(caller.accountId, {
        name: body.name ?? `key-${index + 1}`,
        keyHash: generated.keyHash,
        prefix: generated.prefix,
        lastFour: generated.lastFour,
        environment: body.environment,
        creditLimit: grant.creditLimit,
        memberId: grant.memberId,
        projectId: project?.id ?? null,
      });
      keys.push({
        id: record.id,
        api_key: generated.apiKey,
        name: record.name,
        environment: body.environment,
        credit_limit: record.creditLimit,
        project_id: body.project_id ?? null,
        member_id: record.memberId,
        created_at: record.createdAt.toISOString(),
      });
    }
    return { keys, request_id: context.requestId, response_time: responseTimeSeconds(context) };
  }

  async deactivate(context: RequestContext, body: DeactivateKeysRequestDto): Promise<DeactivateKeysResponseDto> {
    const caller = this.enterpriseCaller(context);
    if (deactivateKeysTargetMissing(body)) throw new ApiError(400, 'Name the keys to deactivate in api_keys or key_ids.');
    const accountKeys = await this.apiKeys.list(caller.accountId);
    const byHash = new Map(accountKeys.map((key) => [key.keyHash, key]));
    const byId = new Map(accountKeys.map((key) => [key.id, key]));
    const deactivated: DeactivateKeysResponseDto['deactivated'] = [];
    const notFound: string[] = [];
    const targets: Array<{ label: string; key: ApiKeyRecord | undefined }> = [
      ...(body.api_keys ?? []).map((apiKey) => ({ label: `****${apiKey.slice(-4)}`, key: byHash.get(hashApiKey(apiKey)) })),
      ...(body.key_ids ?? []).map((id) => ({ label: id, key: byId.get(id) })),
    ];
    // All or nothing: one key out of the caller's reach refuses the request before any key is touched.
    const holders = targets.flatMap(({ key }) => (key && key.id !== caller.apiKeyId ? [key.memberId] : []));
    await underTeamRules(() => this.team.authorizeKeyAccess(teamActorOf(caller), holders));
    for (const { label, key } of targets) {
      if (!key) {
        notFound.push(label);
        continue;
      }
      if (deactivated.some((entry) => entry.id === key.id)) continue;
      await this.apiKeys.deactivate(caller.accountId, key.id);
      this.authentication.forgetKey(key.id);
      deactivated.push({ id: key.id, prefix: key.prefix, last_four: key.lastFour });
    }
    return { deactivated, not_found: notFound, request_id: context.requestId, response_time: responseTimeSeconds(context) };
  }

  /** Information on `keyId` of the account, or on the calling key when no id is given. */
  async info(context: RequestContext, keyId: string | undefined): Promise<KeyInfoResponseDto> {
    const caller = this.enterpriseCaller(context);
    const key = await this.apiKeys.findById(caller.accountId, keyId ?? caller.apiKeyId);
    if (!key) throw new ApiError(404, 'No key with that id in this account.');
    if (key.id !== caller.apiKeyId) await underTeamRules(() => this.team.authorizeKeyAccess(teamActorOf(caller), [key.memberId]));
    const usage = await this.billing.usage({ accountId: caller.accountId, apiKeyId: key.id });
    const projects = key.projectId ? await this.projects.list(caller.accountId) : [];
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      last_four: key.lastFour,
      environment: key.environment === 'prod' ? 'prod' : 'dev',
      status: key.status,
      credit_limit: key.creditLimit,
      usage: usage.key.usage,
      created_at: key.createdAt.toISOString(),
      deactivated_at: key.deactivatedAt?.toISOString() ?? null,
      project_id: projects.find((project) => project.id === key.projectId)?.externalId ?? null,
    };
  }

  private enterpriseCaller(context: RequestContext): KeyedCaller {
    const caller = keyedCaller(context);
    if (caller.planId !== ENTERPRISE_PLAN) {
      throw new ApiError(403, 'Key management is available on the enterprise plan only.');
    }
    return caller;
  }
}
