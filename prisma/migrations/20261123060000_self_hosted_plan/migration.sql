-- The plan of the operator's own keys on their own hardware (issue #13): no monthly allowance (NULL, as enterprise)
-- and request logs readable (paid = true is what /logs checks). `admin keys create` uses it unless told otherwise;
-- the hosted plans above stay for operators who resell.
INSERT INTO "plans" ("id", "name", "monthly_credits", "price_usd_cents", "paid") VALUES
    ('self-hosted', 'Self-hosted', NULL, NULL, true)
ON CONFLICT ("id") DO NOTHING;
