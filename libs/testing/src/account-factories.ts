import { randomUUID } from 'node:crypto';
import { generateApiKey, type ApiKeyEnvironment } from '@sift/auth';
import {
  AccountRepository,
  ApiKeyRepository,
  MemberRepository,
  ProjectRepository,
  type AccountWithPlan,
  type MemberRecord,
  type MemberRoleName,
  type PrismaClient,
} from '@sift/persistence';

export interface TestAccountOptions {
  /** A plan id of the seeded catalogue: researcher, project, bootstrap, startup, growth, paygo, enterprise. */
  plan: string;
  paygoLimit?: number | null;
  zeroDataRetention?: boolean;
  /** A readable stem; a random suffix keeps names unique across parallel test files. */
  name?: string;
}

export interface TestKeyOptions {
  environment?: ApiKeyEnvironment;
  creditLimit?: number | null;
  memberId?: string | null;
  /** The project's caller-facing id (X-Project-ID); the project is created when missing. */
  projectId?: string | null;
}

export interface TestKey {
  /** The raw key, as a client sends it in `Authorization: Bearer`. */
  apiKey: string;
  id: string;
}

export interface TestMemberOptions {
  role: MemberRoleName;
  email?: string;
  name?: string | null;
}

function uniqueSuffix(): string {
  return randomUUID().slice(0, 8);
}

/** A fresh account on `plan`; every test makes its own, so no test depends on a seed or on another test. */
export function createTestAccount(prisma: PrismaClient, options: TestAccountOptions): Promise<AccountWithPlan> {
  return new AccountRepository(prisma).create({
    name: `${options.name ?? 'test-account'}-${uniqueSuffix()}`,
    planId: options.plan,
    paygoLimit: options.paygoLimit ?? null,
    zeroDataRetention: options.zeroDataRetention ?? false,
  });
}

/** A key of the account, made the way the admin command line makes one: only its hash is stored. */
export async function createTestKey(prisma: PrismaClient, accountId: string, options: TestKeyOptions = {}): Promise<TestKey> {
  const environment = options.environment ?? 'dev';
  const generated = generateApiKey(environment);
  const project = options.projectId ? await new ProjectRepository(prisma).findOrCreate(accountId, options.projectId) : null;
  const record = await new ApiKeyRepository(prisma).create(accountId, {
    name: `test-key-${uniqueSuffix()}`,
    keyHash: generated.keyHash,
    prefix: generated.prefix,
    lastFour: generated.lastFour,
    environment,
    creditLimit: options.creditLimit ?? null,
    memberId: options.memberId ?? null,
    projectId: project?.id ?? null,
  });
  return { apiKey: generated.apiKey, id: record.id };
}

/** A team member of the account with a unique e-mail address. */
export function addTestMember(prisma: PrismaClient, accountId: string, options: TestMemberOptions): Promise<MemberRecord> {
  return new MemberRepository(prisma).create(accountId, {
    email: options.email ?? `${options.role}-${uniqueSuffix()}@example.test`,
    name: options.name ?? null,
    role: options.role,
  });
}
