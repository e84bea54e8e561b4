/** Size limits of POST /feedback. A violation is a 422 (validation error in request body). */
export const FEEDBACK_LIMITS = {
  maxBodyBytes: 262144,
  scoreValueCharacters: 64,
  labelCharacters: 64,
  requestIdCharacters: 200,
  sessionIdCharacters: 200,
  extraScores: 50,
  commentCharacters: 10000,
  responseDeliveredCharacters: 50000,
  usedIds: 100,
  idCharacters: 200,
  usedUrls: 100,
  urlCharacters: 2000,
  usedCitations: 100,
  citationCharacters: 2000,
  urlsScores: 100,
  urlScoreScores: 20,
  urlScoreCommentCharacters: 2000,
} as const;

/** Message of the 400 answered when feedback names neither request_id nor session_id (or an item neither id nor url). */
export const FEEDBACK_TARGET_MISSING_MESSAGE = 'Either session_id or request_id is required.';
