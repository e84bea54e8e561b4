-- Running monthly totals of the credit ledger, per account and per API key (issue #14). Every reserve and every
-- settle of an account on a plan with a monthly allowance, and of a key with a credit limit, summed the month's
-- ledger rows (sift_credit_headroom, sift_settle_credits): time linear in the requests made this month, under the
-- account's lock. An account on the growth plan with 90,000 requests this month paid 11.4 ms of Postgres CPU for
-- each of the two (bench/search-latency/billing-growth.ts; 0.3 ms now), and since the lock is held meanwhile, its
-- requests could not be charged faster than about 40 a second together. Now each step reads one or two rows of
-- these totals.
--
-- The totals are derived rows, like the postings: the trigger below keeps them in step with every insert, update
-- and delete of the ledger (the ledger's only writer is sift_settle_credits, under the account's lock), in the same
-- transaction. A total row per (account, UTC month) with api_key_id NULL, and per (account, key, UTC month).
CREATE TABLE "credit_usage" (
    "account_id" UUID NOT NULL,
    "api_key_id" UUID,
    -- The first instant of a UTC calendar month: every ledger row created within that month counts here.
    "month" TIMESTAMPTZ(3) NOT NULL,
    "plan_credits" BIGINT NOT NULL DEFAULT 0,
    "paygo_credits" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "credit_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- NULLS NOT DISTINCT: the account's own total (api_key_id NULL) is one row per month too.
CREATE UNIQUE INDEX "credit_usage_account_id_month_api_key_id_key" ON "credit_usage" ("account_id", "month", "api_key_id") NULLS NOT DISTINCT;

-- Adds a ledger row's credits to its account's and its key's totals of its month.
CREATE FUNCTION sift_add_credit_usage(p_account_id UUID, p_api_key_id UUID, p_created_at TIMESTAMPTZ,
                                      p_plan_credits BIGINT, p_paygo_credits BIGINT) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO credit_usage AS u (account_id, api_key_id, month, plan_credits, paygo_credits)
  SELECT p_account_id, k.api_key_id, date_trunc('month', p_created_at, 'UTC'), p_plan_credits, p_paygo_credits
  -- The account's row always; the key's row when the ledger row names a key.
  FROM (VALUES (1, NULL::uuid), (2, p_api_key_id)) AS k(n, api_key_id)
  WHERE k.n = 1 OR k.api_key_id IS NOT NULL
  ON CONFLICT (account_id, month, api_key_id) DO UPDATE
    SET plan_credits = u.plan_credits + EXCLUDED.plan_credits, paygo_credits = u.paygo_credits + EXCLUDED.paygo_credits
$$;

CREATE FUNCTION sift_count_credit_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A removed row's credits come off the totals that counted it (they exist: its insert made them). Only an
  -- update: when the account itself is deleted, its totals went with it before this runs, and stay gone.
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE credit_usage u
    SET plan_credits = u.plan_credits - OLD.plan_credits, paygo_credits = u.paygo_credits - OLD.paygo_credits
    WHERE u.account_id = OLD.account_id AND u.month = date_trunc('month', OLD.created_at, 'UTC')
      AND (u.api_key_id IS NULL OR u.api_key_id = OLD.api_key_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM sift_add_credit_usage(NEW.account_id, NEW.api_key_id, NEW.created_at, NEW.plan_credits, NEW.paygo_credits);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER credit_ledger_count_usage AFTER INSERT OR UPDATE OR DELETE ON "credit_ledger"
FOR EACH ROW EXECUTE FUNCTION sift_count_credit_usage();

-- The ledger so far.
INSERT INTO credit_usage (account_id, api_key_id, month, plan_credits, paygo_credits)
SELECT l.account_id, NULL, date_trunc('month', l.created_at, 'UTC'), sum(l.plan_credits), sum(l.paygo_credits)
FROM credit_ledger l GROUP BY 1, 3;
INSERT INTO credit_usage (account_id, api_key_id, month, plan_credits, paygo_credits)
SELECT l.account_id, l.api_key_id, date_trunc('month', l.created_at, 'UTC'), sum(l.plan_credits), sum(l.paygo_credits)
FROM credit_ledger l WHERE l.api_key_id IS NOT NULL GROUP BY 1, 2, 3;

-- The credits an account (p_api_key_id NULL) or one of its keys has spent since p_since, plan and pay-as-you-go
-- apart: what `sum(...) FROM credit_ledger WHERE created_at >= p_since` gave. From the totals when p_since is the
-- start of a UTC month (what the billing service passes: the current month), which then counts exactly the same
-- rows; from the ledger for any other instant.
CREATE FUNCTION sift_credits_used(p_account_id UUID, p_api_key_id UUID, p_since TIMESTAMPTZ,
                                  OUT plan_credits BIGINT, OUT paygo_credits BIGINT)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF p_since = date_trunc('month', p_since, 'UTC') THEN
    IF p_api_key_id IS NULL THEN
      SELECT coalesce(sum(u.plan_credits), 0), coalesce(sum(u.paygo_credits), 0) INTO plan_credits, paygo_credits
      FROM credit_usage u WHERE u.account_id = p_account_id AND u.api_key_id IS NULL AND u.month >= p_since;
    ELSE
      SELECT coalesce(sum(u.plan_credits), 0), coalesce(sum(u.paygo_credits), 0) INTO plan_credits, paygo_credits
      FROM credit_usage u WHERE u.account_id = p_account_id AND u.api_key_id = p_api_key_id AND u.month >= p_since;
    END IF;
  ELSIF p_api_key_id IS NULL THEN
    SELECT coalesce(sum(l.plan_credits), 0), coalesce(sum(l.paygo_credits), 0) INTO plan_credits, paygo_credits
    FROM credit_ledger l WHERE l.account_id = p_account_id AND l.created_at >= p_since;
  ELSE
    SELECT coalesce(sum(l.plan_credits), 0), coalesce(sum(l.paygo_credits), 0) INTO plan_credits, paygo_credits
    FROM credit_ledger l WHERE l.account_id = p_account_id AND l.api_key_id = p_api_key_id AND l.created_at >= p_since;
  END IF;
END
$$;

-- As in migration 20261123010000, with the two sums over the month's ledger read from the totals instead.
CREATE OR REPLACE FUNCTION sift_credit_headroom(p_account_id UUID, p_api_key_id UUID, p_key_limit INTEGER, p_plan_id TEXT,
                                                p_monthly INTEGER, p_paygo_limit INTEGER, p_since TIMESTAMPTZ)
RETURNS TABLE(key_available BIGINT, account_available BIGINT, account_refusal TEXT)
LANGUAGE plpgsql AS $$
DECLARE
    v_key_available BIGINT;
    v_account_available BIGINT;
    v_plan_used BIGINT;
    v_paygo_used BIGINT;
BEGIN
    IF p_api_key_id IS NOT NULL AND p_key_limit IS NOT NULL THEN
        SELECT p_key_limit
               - (SELECT u.plan_credits + u.paygo_credits FROM sift_credits_used(p_account_id, p_api_key_id, p_since) u)
               - (SELECT coalesce(sum(r.credits), 0) FROM credit_reservations r
                  WHERE r.account_id = p_account_id AND r.api_key_id = p_api_key_id AND r.expires_at > clock_timestamp())
        INTO v_key_available;
    END IF;

    IF p_monthly IS NOT NULL AND NOT (p_plan_id = 'paygo' AND p_paygo_limit IS NULL) THEN
        SELECT u.plan_credits, u.paygo_credits INTO v_plan_used, v_paygo_used
        FROM sift_credits_used(p_account_id, NULL, p_since) u;
        v_account_available := greatest(0, p_monthly - v_plan_used)
            + CASE WHEN p_paygo_limit IS NULL THEN 0 ELSE greatest(0, p_paygo_limit - v_paygo_used) END
            - (SELECT coalesce(sum(r.credits), 0) FROM credit_reservations r
               WHERE r.account_id = p_account_id AND r.expires_at > clock_timestamp());
    END IF;

    -- greatest() ignores NULLs, so "no limit" is kept apart from "nothing left".
    RETURN QUERY SELECT CASE WHEN v_key_available IS NULL THEN NULL ELSE greatest(0, v_key_available) END,
        CASE WHEN v_account_available IS NULL THEN NULL ELSE greatest(0, v_account_available) END,
        CASE WHEN p_paygo_limit IS NULL THEN 'plan_limit' ELSE 'paygo_limit' END;
END;
$$;

-- As in migration 20261123010000, with the plan credits left this month read from the totals.
CREATE OR REPLACE FUNCTION sift_settle_credits(
    p_account_id UUID,
    p_api_key_id UUID,
    p_project_id UUID,
    p_request_id TEXT,
    p_endpoint TEXT,
    p_kinds TEXT[],
    p_credits INTEGER[],
    p_meters TEXT[],
    p_units INTEGER[],
    p_units_per_block INTEGER[],
    p_credits_per_block INTEGER[],
    p_since TIMESTAMPTZ
) RETURNS TABLE (outcome TEXT, kind TEXT, plan_credits INTEGER, paygo_credits INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
    v_plan_id TEXT;
    v_monthly INTEGER;
    v_paygo_limit INTEGER;
    v_key_limit INTEGER;
    v_reserved INTEGER;
    v_live BOOLEAN;
    v_budget BIGINT;
    v_key_available BIGINT;
    v_account_available BIGINT;
    v_plan_left BIGINT;
    v_carry INTEGER;
    v_total INTEGER;
    v_cost INTEGER;
    v_charge INTEGER;
    v_plan INTEGER;
    v_paygo INTEGER;
BEGIN
    SELECT l.locked_plan_id, l.locked_monthly_credits, l.locked_paygo_limit INTO v_plan_id, v_monthly, v_paygo_limit
    FROM sift_lock_account(p_account_id) l;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'account_missing'::TEXT, NULL::TEXT, 0, 0;
        RETURN;
    END IF;

    IF EXISTS (SELECT 1 FROM credit_ledger l WHERE l.request_id = p_request_id AND l.kind = ANY (p_kinds)) THEN
        DELETE FROM credit_reservations r WHERE r.request_id = p_request_id AND r.account_id = p_account_id;
        RETURN QUERY
            SELECT CASE WHEN l.account_id = p_account_id THEN 'replayed' ELSE 'conflict' END, l.kind, l.plan_credits, l.paygo_credits
            FROM credit_ledger l WHERE l.request_id = p_request_id AND l.kind = ANY (p_kinds);
        RETURN;
    END IF;

    DELETE FROM credit_reservations r WHERE r.request_id = p_request_id AND r.account_id = p_account_id
    RETURNING r.credits, r.expires_at > clock_timestamp() INTO v_reserved, v_live;
    IF v_live THEN
        v_budget := v_reserved;
    ELSE
        IF p_api_key_id IS NOT NULL THEN
            SELECT k.credit_limit INTO v_key_limit FROM api_keys k WHERE k.id = p_api_key_id AND k.account_id = p_account_id;
        END IF;
        SELECT h.key_available, h.account_available INTO v_key_available, v_account_available
        FROM sift_credit_headroom(p_account_id, p_api_key_id, v_key_limit, v_plan_id, v_monthly, v_paygo_limit, p_since) h;
        v_budget := least(v_key_available, v_account_available);
    END IF;

    IF v_monthly IS NOT NULL THEN
        SELECT greatest(0, v_monthly - u.plan_credits) INTO v_plan_left
        FROM sift_credits_used(p_account_id, NULL, p_since) u;
    END IF;

    FOR i IN 1 .. coalesce(array_length(p_kinds, 1), 0) LOOP
        IF p_meters[i] IS NULL THEN
            v_cost := p_credits[i];
        ELSE
            SELECT m.units INTO v_carry FROM billing_meters m WHERE m.account_id = p_account_id AND m.meter = p_meters[i];
            v_total := coalesce(v_carry, 0) + p_units[i];
            v_cost := (v_total / p_units_per_block[i]) * p_credits_per_block[i];
            INSERT INTO billing_meters (account_id, meter, units) VALUES (p_account_id, p_meters[i], v_total % p_units_per_block[i])
            ON CONFLICT (account_id, meter) DO UPDATE SET units = EXCLUDED.units;
        END IF;
        v_charge := CASE WHEN v_budget IS NULL THEN v_cost ELSE least(v_cost, v_budget) END;
        v_budget := v_budget - v_charge;
        v_plan := CASE WHEN v_plan_left IS NULL THEN v_charge ELSE least(v_charge, v_plan_left) END;
        v_plan_left := v_plan_left - v_plan;
        v_paygo := v_charge - v_plan;
        -- A row is written even for 0 credits: it is the marker that makes a retry of this request a no-op.
        INSERT INTO credit_ledger (account_id, api_key_id, project_id, request_id, kind, endpoint, plan_credits, paygo_credits)
        VALUES (p_account_id, p_api_key_id, p_project_id, p_request_id, p_kinds[i], p_endpoint, v_plan, v_paygo);
        RETURN QUERY SELECT 'settled'::TEXT, p_kinds[i], v_plan, v_paygo;
    END LOOP;
END;
$$;
