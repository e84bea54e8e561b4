import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';

/** Who performs an admin action, as the audit records it. */
export interface AdminActor {
  channel: 'api' | 'cli';
  /** `admin-token:<fingerprint>` for the admin API, `<user>@<host>` for the command line. */
  name: string;
  /** The HTTP request that asked for the action (admin API only). */
  requestId?: string;
  clientIp?: string;
}

/**
 * The operator credential as the audit names it: a fingerprint of the token, never the token, so a rotated token
 * shows as another actor without the record giving anything away.
 */
export function operatorTokenActor(token: string, request: { requestId?: string; clientIp?: string } = {}): AdminActor {
  const fingerprint = createHash('sha256').update(token).digest('hex').slice(0, 12);
  return { channel: 'api', name: `admin-token:${fingerprint}`, ...request };
}

/** The person at the command line: their login name on this machine (a container may have no passwd entry). */
export function commandLineActor(): AdminActor {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? `uid-${process.getuid?.() ?? 'unknown'}`;
  }
  return { channel: 'cli', name: `${user}@${hostname()}` };
}
