import type { PrismaClient } from '../generated/prisma/client';
import type { InputJsonValue } from '../generated/prisma/internal/prismaNamespace';

export interface FeedbackRecord {
  id: string;
  accountId: string;
  apiKeyId: string | null;
  requestId: string | null;
  sessionId: string | null;
  agentScore: string | null;
  humanScore: string | null;
  payload: unknown;
  zeroDataRetention: boolean;
  createdAt: Date;
}

export interface NewFeedback {
  apiKeyId?: string | null;
  requestId?: string | null;
  sessionId?: string | null;
  agentScore?: string | null;
  humanScore?: string | null;
  payload: InputJsonValue;
  zeroDataRetention: boolean;
}

/** Feedback submissions, scoped by accountId. The caller strips free text first under zero data retention. */
export class FeedbackRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(accountId: string, feedback: NewFeedback): Promise<FeedbackRecord> {
    return this.prisma.feedback.create({ data: { ...feedback, accountId } });
  }

  findById(accountId: string, feedbackId: string): Promise<FeedbackRecord | null> {
    return this.prisma.feedback.findFirst({ where: { id: feedbackId, accountId } });
  }

  list(accountId: string, limit = 100): Promise<FeedbackRecord[]> {
    return this.prisma.feedback.findMany({ where: { accountId }, orderBy: { createdAt: 'desc' }, take: limit });
  }
}
