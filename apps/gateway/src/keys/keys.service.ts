import { Injectable } from '@nestjs/common';
import {
  DeactivateKeysRequestDto,
  DeactivateKeysResponseDto,
  deactivationTarget,
  GenerateKeysRequestDto,
  GenerateKeysResponseDto,
  KeyInfoResponseDto,
  NEVER_EXPIRES,
} from '@sift/api-contracts';
import { generateApiKey, hashApiKey, hasExpired, KeyGrant, TeamService as TeamRules } from '@sift/auth';
import { BillingService } from '@sift/billing';
import { ApiKeyRecord, ApiKeyRepository, ProjectRepository } from '@sift/persistence';
import { ApiError } from '../http/api-error';
import { CallerAuthentication } from '../caller/caller-authentication.service';
import { KeyedCaller, keyedCaller, RequestContext, responseTimeSeconds } from '../caller/request-context';
import { teamActorOf, underTeamRules } from '../team/team-rules';
import { environmentOfKeyType, keyTypeOfEnvironment } from './key-type';

const ENTERPRISE_PLAN = 'enterprise';
/** The 403 every key-management route answers below the enterprise plan; the routes document it with this text. */
export const ENTERPRISE_ONLY_MESSAGE = 'Key management is available on the enterprise plan only.';
const MILLISECONDS_PER_HOUR = 3_600_000;

/** A key the request names, and how to report it when it matches no active key. */
interface DeactivationTarget {
  label: string;
  key: ApiKeyRecord | undefined;
}

/**
 * Enterprise key management with Tavily's payloads: create, deactivate and inspect the organisation's keys. Every
 * key acts as its member (or, without one, as the operator); what a key may create, see or deactivate is decided by
 * @sift/auth's team rules.
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
    const environment = environmentOfKeyType(body.key_type);
    const grant = await this.grantFor(caller, body);
    const project = body.project_id ? await this.projects.findOrCreate(caller.accountId, body.project_id) : null;
    const expiration = grant.expiresAt ? withoutMilliseconds(grant.expiresAt) : NEVER_EXPIRES;
    const keys: string[] = [];
    const records: ApiKeyRecord[] = [];
    for (let index = 1; index <= body.count; index += 1) {
      const generated = generateApiKey(environment);
      records.push(
        await this.apiKeys.create(caller.accountId, {
          name: body.name ?? `${body.key_type}-${expiration}-#${index}`,
          keyHash: generated.keyHash,
          prefix: generated.prefix,
          lastFour: generated.lastFour,
          environment,
          creditLimit: grant.creditLimit,
          memberId: grant.memberId,
          projectId: project?.id ?? null,
          expiresAt: grant.expiresAt,
          generationRequestId: context.requestId,
        }),
      );
      keys.push(generated.apiKey);
    }
    return {
      keys,
      key_details: records.map((record) => ({
        id: record.id,
        name: record.name,
        key_type: body.key_type,
        key_limit: record.creditLimit,
        project_id: body.project_id ?? null,
        member_id: record.memberId,
      })),
      expires_at: grant.expiresAt?.toISOString() ?? NEVER_EXPIRES,
      created: records[0].createdAt.toISOString(),
      message: generationMessage(body, grant),
      request_id: context.requestId,
      response_time: responseTimeSeconds(context),
    };
  }

  async deactivate(context: RequestContext, body: DeactivateKeysRequestDto): Promise<DeactivateKeysResponseDto> {
    const caller = this.enterpriseCaller(context);
    const targets = await this.deactivationTargets(caller, body);
    // All or nothing: one key out of the caller's reach refuses the request before any key is touched.
    const holders = targets.flatMap(({ key }) => (key && key.id !== caller.apiKeyId ? [key.memberId] : []));
    await underTeamRules(() => this.team.authorizeKeyAccess(teamActorOf(caller), holders));
    const deactivated: DeactivateKeysResponseDto['deactivated'] = [];
    const notFound: string[] = [];
    for (const { label, key } of targets) {
      if (key && deactivated.some((entry) => entry.id === key.id)) continue;
      if (!key || !(await this.apiKeys.deactivate(caller.accountId, key.id))) {
        notFound.push(label);
        continue;
      }
      this.authentication.forgetKey(key.id);
      deactivated.push({ id: key.id, prefix: key.prefix, last_four: key.lastFour });
    }
    return {
      message: `Successfully deactivated ${deactivated.length} key(s)`,
      deactivated,
      not_found: notFound,
      request_id: context.requestId,
      response_time: responseTimeSeconds(context),
    };
  }

  /** Information on `keyId` of the account, or on the calling key when no id is given (Tavily: the Authorization key). */
  async info(context: RequestContext, keyId: string | undefined): Promise<KeyInfoResponseDto> {
    const caller = this.enterpriseCaller(context);
    const key = await this.apiKeys.findById(caller.accountId, keyId ?? caller.apiKeyId);
    if (!key) throw new ApiError(404, 'No key with that id in this account.');
    if (key.id !== caller.apiKeyId) await underTeamRules(() => this.team.authorizeKeyAccess(teamActorOf(caller), [key.memberId]));
    const usage = await this.billing.usage({ accountId: caller.accountId, apiKeyId: key.id });
    const projects = key.projectId ? await this.projects.list(caller.accountId) : [];
    // Tavily reports an expired key as deactivated: it was deactivated automatically at its expiry.
    const expired = hasExpired(key.expiresAt);
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      last_four: key.lastFour,
      key_type: keyTypeOfEnvironment(key.environment),
      status: key.status === 'active' && !expired ? 'active' : 'deactivated',
      limit: key.creditLimit,
      usage: usage.key.usage,
      created: key.createdAt.toISOString(),
      created_at: key.createdAt.toISOString(),
      expires_at: key.expiresAt?.toISOString() ?? NEVER_EXPIRES,
      deactivated_at: (key.deactivatedAt ?? (expired ? key.expiresAt : null))?.toISOString() ?? null,
      project_id: projects.find((project) => project.id === key.projectId)?.externalId ?? null,
      member_id: key.memberId,
    };
  }

  /** The new keys' holder, limit and expiry: a key never hands on more than it has (team rules). */
  private async grantFor(caller: KeyedCaller, body: GenerateKeysRequestDto): Promise<KeyGrant> {
    const issuing = await this.apiKeys.findById(caller.accountId, caller.apiKeyId);
    const requestedExpiry = body.ttl_hours === undefined ? undefined : new Date(Date.now() + body.ttl_hours * MILLISECONDS_PER_HOUR);
    return underTeamRules(() =>
      this.team.authorizeNewKeys(
        teamActorOf(caller),
        { memberId: caller.memberId, environment: caller.environment, creditLimit: caller.creditLimit, expiresAt: issuing?.expiresAt ?? null },
        { memberId: body.member_id, environment: environmentOfKeyType(body.key_type), creditLimit: body.key_limit, expiresAt: requestedExpiry },
      ),
    );
  }

  /** What the request names: a generation's keys, single keys and ids; or, naming none, the calling key itself. */
  private async deactivationTargets(caller: KeyedCaller, body: DeactivateKeysRequestDto): Promise<DeactivationTarget[]> {
    const target = deactivationTarget(body);
    if (target === 'nothing') throw new ApiError(400, 'Name the keys to deactivate in request_id, api_keys or key_ids; send no body to deactivate the calling key.');
    if (target === 'calling-key') {
      return [{ label: caller.apiKeyId, key: (await this.apiKeys.findById(caller.accountId, caller.apiKeyId)) ?? undefined }];
    }
    const targets: DeactivationTarget[] = [];
    if (body.request_id !== undefined) {
      const batch = await this.apiKeys.listByGenerationRequest(caller.accountId, body.request_id);
      if (batch.length === 0) targets.push({ label: body.request_id, key: undefined });
      targets.push(...batch.map((key) => ({ label: key.id, key })));
    }
    const accountKeys = await this.apiKeys.list(caller.accountId);
    const byHash = new Map(accountKeys.map((key) => [key.keyHash, key]));
    const byId = new Map(accountKeys.map((key) => [key.id, key]));
    targets.push(...(body.api_keys ?? []).map((apiKey) => ({ label: `****${apiKey.slice(-4)}`, key: byHash.get(hashApiKey(apiKey)) })));
    targets.push(...(body.key_ids ?? []).map((id) => ({ label: id, key: byId.get(id) })));
    return targets;
  }

  private enterpriseCaller(context: RequestContext): KeyedCaller {
    const caller = keyedCaller(context);
    if (caller.planId !== ENTERPRISE_PLAN) {
      throw new ApiError(403, ENTERPRISE_ONLY_MESSAGE);
    }
    return caller;
  }
}

/** Tavily's summary: "2 keys generated successfully with 200 credits each. These keys will be automatically deactivated after 10 hours". */
function generationMessage(body: GenerateKeysRequestDto, grant: KeyGrant): string {
  const created = `${body.count} ${body.count === 1 ? 'key' : 'keys'} generated successfully`;
  const limit = grant.creditLimit === null ? '' : ` with ${grant.creditLimit} credits each`;
  if (!grant.expiresAt) return `${created}${limit}.`;
  const when = body.ttl_hours === undefined ? `at ${grant.expiresAt.toISOString()}` : `after ${body.ttl_hours} hours`;
  return `${created}${limit}. ${body.count === 1 ? 'This key' : 'These keys'} will be automatically deactivated ${when}`;
}

/** `2026-02-25T01:14:45Z`: the expiry as it appears in generated key names. */
function withoutMilliseconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
