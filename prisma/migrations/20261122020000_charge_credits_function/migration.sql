-- A fixed-credit charge in one statement: lock the account row, replay an earlier attempt of the same
-- (request_id, kind), read the month's usage, apply the allocation rule and insert the ledger row. Run as a
-- single autocommitted statement, the account row is locked only while this function runs; with the charge
-- spread over several round trips from the application, every charge of a busy account queued behind the
-- client's event loop. PL/pgSQL takes a fresh snapshot per statement (READ COMMITTED), so the usage read after
-- the lock includes every charge committed before it: no oversell. The rule mirrors allocateCredits() in
-- libs/billing/src/credit-allocation.ts; both are covered by the billing integration tests.
CREATE FUNCTION sift_charge_credits(
    p_account_id UUID,
    p_api_key_id UUID,
    p_project_id UUID,
    p_request_id TEXT,
    p_kind TEXT,
    p_endpoint TEXT,
    p_credits INTEGER,
    p_since TIMESTAMPTZ
) RETURNS TABLE (outcome TEXT, plan_credits INTEGER, paygo_credits INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
    v_plan_id TEXT;
    v_monthly INTEGER;
    v_paygo_limit INTEGER;
    v_key_found BOOLEAN := FALSE;
    v_key_limit INTEGER;
    v_key_used BIGINT := 0;
    v_plan_used BIGINT;
    v_paygo_used BIGINT;
    v_plan INTEGER;
    v_paygo INTEGER;
BEGIN
    -- NO KEY UPDATE excludes other charges but not the key-share locks of foreign-key checks (request logs).
    SELECT a.plan_id, p.monthly_credits, a.paygo_limit INTO v_plan_id, v_monthly, v_paygo_limit
    FROM accounts a JOIN plans p ON p.id = a.plan_id
    WHERE a.id = p_account_id
    FOR NO KEY UPDATE OF a;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'account_missing'::TEXT, 0, 0;
        RETURN;
    END IF;

    SELECT l.plan_credits, l.paygo_credits INTO v_plan, v_paygo
    FROM credit_ledger l
    WHERE l.account_id = p_account_id AND l.request_id = p_request_id AND l.kind = p_kind;
    IF FOUND THEN
        RETURN QUERY SELECT 'replayed'::TEXT, v_plan, v_paygo;
        RETURN;
    END IF;

    IF p_api_key_id IS NOT NULL THEN
        SELECT TRUE, k.credit_limit INTO v_key_found, v_key_limit
        FROM api_keys k WHERE k.id = p_api_key_id AND k.account_id = p_account_id;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'key_missing'::TEXT, 0, 0;
            RETURN;
        END IF;
        IF v_key_limit IS NOT NULL THEN
            SELECT coalesce(sum(l.plan_credits + l.paygo_credits), 0) INTO v_key_used
            FROM credit_ledger l
            WHERE l.account_id = p_account_id AND l.api_key_id = p_api_key_id AND l.created_at >= p_since;
            IF v_key_used + p_credits > v_key_limit THEN
                RETURN QUERY SELECT 'key_limit'::TEXT, 0, 0;
                RETURN;
            END IF;
        END IF;
    END IF;

    IF v_monthly IS NULL THEN
        v_plan := p_credits;
        v_paygo := 0;
    ELSE
        SELECT coalesce(sum(l.plan_credits), 0), coalesce(sum(l.paygo_credits), 0) INTO v_plan_used, v_paygo_used
        FROM credit_ledger l
        WHERE l.account_id = p_account_id AND l.created_at >= p_since;
        v_plan := least(p_credits, greatest(0, v_monthly - v_plan_used));
        v_paygo := p_credits - v_plan;
        IF v_paygo > 0 THEN
            IF v_paygo_limit IS NULL THEN
                IF v_plan_id <> 'paygo' THEN
                    RETURN QUERY SELECT 'plan_limit'::TEXT, 0, 0;
                    RETURN;
                END IF;
            ELSIF v_paygo_used + v_paygo > v_paygo_limit THEN
                RETURN QUERY SELECT 'paygo_limit'::TEXT, 0, 0;
                RETURN;
            END IF;
        END IF;
    END IF;

    -- (request_id, kind) is unique across accounts: a clash with another account's row is reported, not raised.
    INSERT INTO credit_ledger (account_id, api_key_id, project_id, request_id, kind, endpoint, plan_credits, paygo_credits)
    VALUES (p_account_id, p_api_key_id, p_project_id, p_request_id, p_kind, p_endpoint, v_plan, v_paygo)
    ON CONFLICT (request_id, kind) DO NOTHING;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'conflict'::TEXT, 0, 0;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'charged'::TEXT, v_plan, v_paygo;
END;
$$;
