/** Raised when the acting member's role does not allow the action. The gateway maps it to 403. */
export class ForbiddenActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenActionError';
  }
}

/** Raised when a member (or account) does not exist within the acting account. */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** Raised when the change would break a team invariant, e.g. a second owner or a duplicate e-mail. */
export class TeamConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TeamConflictError';
  }
}
