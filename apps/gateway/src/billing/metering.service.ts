import { Injectable, Logger } from '@nestjs/common';
import { affordablePages, BilledEndpoint, BillingMeterName, BillingService, ChargeLine, creditsChargedCounter, Reservation } from '@sift/billing';
import { withBillingErrors } from './billing-error.mapper';
import type { RequestContext } from '../caller/request-context';

/** Held past the work's own deadline: the reply, the settle's wait for the account lock. */
const RESERVATION_MARGIN_MS = 30_000;
/** For work without a deadline of its own (search stops at its depth profile's deadlines, well within this). */
const DEFAULT_WORK_MS = 120_000;

export interface CreditBounds {
  /** The request's worst-case cost: what is reserved when the caller can pay it. */
  maximumCredits: number;
  /** Less than this available → 432/433 before any work. */
  minimumCredits: number;
  /** How long the work may run; the credits are held that long plus a margin, then stop counting. */
  deadlineMs?: number;
}

/**
 * Data-plane billing for one request: reserve before the work (432/433 before anything is fetched, and the
 * grant caps the work), settle what was done after it, release on failure. Keyless calls are free: no
 * reservation (null), nothing charged. The credits charged are returned for the service's request outcome.
 */
@Injectable()
export class MeteringService {
  private readonly logger = new Logger('metering');
  private readonly creditsCharged = creditsChargedCounter();

  constructor(private readonly billing: BillingService) {}

  async reserve(context: RequestContext, endpoint: BilledEndpoint, bounds: CreditBounds): Promise<Reservation | null> {
    const caller = context.caller;
    if (!caller || caller.keyless) return null;
    return withBillingErrors(() =>
      this.billing.reserve({
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        projectExternalId: context.projectExternalId ?? null,
        requestId: context.requestId,
        endpoint,
        maximumCredits: bounds.maximumCredits,
        minimumCredits: bounds.minimumCredits,
        holdMilliseconds: (bounds.deadlineMs ?? DEFAULT_WORK_MS) + RESERVATION_MARGIN_MS,
      }),
    );
  }

  /**
   * Reserves, runs the work with the reservation (the work settles it when it succeeds) and releases it when the
   * work throws, so a failed request never keeps a charge nor holds credits.
   */
  async withReservation<T>(
    context: RequestContext,
    endpoint: BilledEndpoint,
    bounds: CreditBounds,
    work: (reservation: Reservation | null) => Promise<T>,
  ): Promise<T> {
    const reservation = await this.reserve(context, endpoint, bounds);
    try {
      return await work(reservation);
    } catch (error) {
      await this.release(reservation);
      throw error;
    }
  }

  /** Charges every line of the request in one transaction, within the reservation; returns the credits charged. */
  async settle(context: RequestContext, reservation: Reservation | null, lines: readonly ChargeLine[]): Promise<number> {
    if (!reservation) return 0;
    const result = await withBillingErrors(() => this.billing.settle(reservation, lines));
    if (!result.replayed) this.creditsCharged.inc({ endpoint: reservation.endpoint }, result.charged);
    return result.charged;
  }

  /**
   * The request failed: nothing is charged. A release that fails itself is logged, not thrown, so it never
   * hides the request's own error; the reservation then stops counting when it expires.
   */
  async release(reservation: Reservation | null): Promise<void> {
    if (!reservation) return;
    try {
      await this.billing.release(reservation);
    } catch (error) {
      this.logger.error(`release of reservation ${reservation.requestId} failed: ${(error as Error).message}`);
    }
  }

  /** The page limit to send to a crawl or map: the caller's, cut to what the granted credits pay in the worst case. */
  pageLimit(reservation: Reservation | null, meters: readonly BillingMeterName[], requested: number): number {
    if (!reservation) return requested;
    return Math.min(requested, affordablePages(meters, reservation.credits));
  }
}
