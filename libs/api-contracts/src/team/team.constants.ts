/** One owner per team (full settings, billing); admins manage settings except ownership; members only view members. */
export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** Ownership is transferred, never granted by an invitation. */
export const INVITABLE_TEAM_ROLES = ['admin', 'member'] as const;
export type InvitableTeamRole = (typeof INVITABLE_TEAM_ROLES)[number];
