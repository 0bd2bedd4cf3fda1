CREATE TABLE "transaction_activity_stats" (
	"merchant_id" text NOT NULL,
	"business_id" text NOT NULL,
	"partner_id" text,
	"currency" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"volume" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"unsuccessful_volume" bigint DEFAULT 0 NOT NULL,
	"unsuccessful_revenue" bigint DEFAULT 0 NOT NULL,
	"sales_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transaction_activity_stats_merchant_id_currency_bucket_start_pk" PRIMARY KEY("merchant_id","currency","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "transaction_activity_stats_daily" (
	"merchant_id" text NOT NULL,
	"business_id" text NOT NULL,
	"partner_id" text,
	"currency" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"volume" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"unsuccessful_volume" bigint DEFAULT 0 NOT NULL,
	"unsuccessful_revenue" bigint DEFAULT 0 NOT NULL,
	"sales_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transaction_activity_stats_daily_merchant_id_currency_bucket_start_pk" PRIMARY KEY("merchant_id","currency","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "transaction_activity_stats_hourly" (
	"merchant_id" text NOT NULL,
	"business_id" text NOT NULL,
	"partner_id" text,
	"currency" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"volume" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"unsuccessful_volume" bigint DEFAULT 0 NOT NULL,
	"unsuccessful_revenue" bigint DEFAULT 0 NOT NULL,
	"sales_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transaction_activity_stats_hourly_merchant_id_currency_bucket_start_pk" PRIMARY KEY("merchant_id","currency","bucket_start")
);
--> statement-breakpoint
CREATE INDEX "transaction_activity_stats_business_idx" ON "transaction_activity_stats" USING btree ("business_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_activity_stats_partner_idx" ON "transaction_activity_stats" USING btree ("partner_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_activity_stats_daily_business_idx" ON "transaction_activity_stats_daily" USING btree ("business_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_activity_stats_daily_partner_idx" ON "transaction_activity_stats_daily" USING btree ("partner_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_activity_stats_hourly_business_idx" ON "transaction_activity_stats_hourly" USING btree ("business_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_activity_stats_hourly_partner_idx" ON "transaction_activity_stats_hourly" USING btree ("partner_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
-- Existing data: the statistics are built again by the current rules (server/stats/definition.ts): a payment captured
-- in parts counts what its captures took, not its authorised amount, and the activity view counts each transaction
-- at its own time. The same statements as the seed's bulk build (server/db/seed.ts, server/stats/rebuild.ts).
TRUNCATE "transaction_stats", "transaction_stats_hourly", "transaction_stats_daily";
--> statement-breakpoint
INSERT INTO "transaction_stats" ("merchant_id", "business_id", "partner_id", "currency", "bucket_start", "volume", "revenue", "unsuccessful_volume", "unsuccessful_revenue", "sales_count")
SELECT p.merchant_id, p.business_id, p.partner_id, p.currency,
  date_bin('15 minutes', p.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS bucket_start,
  (coalesce(sum(p.amount_minor) FILTER (WHERE p.status = 'paid' AND c.parent_reference IS NULL), 0) + coalesce(sum(c.captured), 0))::bigint,
  (coalesce(sum(p.amount_minor) FILTER (WHERE p.status = 'paid' AND c.parent_reference IS NULL), 0) + coalesce(sum(c.captured), 0) - coalesce(sum(r.refunded), 0))::bigint,
  coalesce(sum(p.amount_minor) FILTER (WHERE p.status IN ('declined', 'failed')), 0)::bigint,
  coalesce(sum(p.amount_minor) FILTER (WHERE p.status IN ('declined', 'failed')), 0)::bigint,
  count(*) FILTER (WHERE p.status = 'paid')::bigint
FROM transactions p
LEFT JOIN (SELECT parent_reference, sum(amount_minor) AS refunded FROM transactions WHERE kind IN ('refund', 'chargeback') AND status = 'paid' GROUP BY parent_reference) r ON r.parent_reference = p.reference
LEFT JOIN (SELECT parent_reference, sum(amount_minor) FILTER (WHERE status = 'paid') AS captured FROM transactions WHERE kind = 'capture' GROUP BY parent_reference) c ON c.parent_reference = p.reference
WHERE p.kind = 'payment'
GROUP BY p.merchant_id, p.business_id, p.partner_id, p.currency, 5;
--> statement-breakpoint
INSERT INTO "transaction_activity_stats" ("merchant_id", "business_id", "partner_id", "currency", "bucket_start", "volume", "revenue", "unsuccessful_volume", "unsuccessful_revenue", "sales_count")
SELECT t.merchant_id, min(t.business_id), min(t.partner_id), t.currency,
  date_bin('15 minutes', t.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS bucket_start,
  coalesce(sum(t.amount_minor) FILTER (WHERE t.status = 'paid' AND (t.kind = 'capture' OR (t.kind = 'payment' AND c.parent_reference IS NULL))), 0)::bigint,
  coalesce(sum(CASE WHEN t.status <> 'paid' THEN 0 WHEN t.kind = 'capture' OR (t.kind = 'payment' AND c.parent_reference IS NULL) THEN t.amount_minor
    WHEN t.kind IN ('refund', 'chargeback') THEN -t.amount_minor ELSE 0 END), 0)::bigint,
  coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'payment' AND t.status IN ('declined', 'failed')), 0)::bigint,
  coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'payment' AND t.status IN ('declined', 'failed')), 0)::bigint,
  count(*) FILTER (WHERE t.kind = 'payment' AND t.status = 'paid')::bigint
FROM transactions t
LEFT JOIN (SELECT DISTINCT parent_reference FROM transactions WHERE kind = 'capture') c ON t.kind = 'payment' AND c.parent_reference = t.reference
WHERE t.kind = 'payment' OR (t.status = 'paid' AND t.kind IN ('capture', 'refund', 'chargeback')
  AND EXISTS (SELECT 1 FROM transactions p WHERE p.reference = t.parent_reference AND p.kind = 'payment'))
GROUP BY t.merchant_id, t.currency, 5
HAVING count(*) FILTER (WHERE t.status = 'paid' OR t.status IN ('declined', 'failed')) > 0;
--> statement-breakpoint
INSERT INTO "transaction_stats_hourly" SELECT merchant_id, min(business_id), min(partner_id), currency, date_trunc('hour', bucket_start, 'UTC'), sum(volume), sum(revenue), sum(unsuccessful_volume), sum(unsuccessful_revenue), sum(sales_count) FROM "transaction_stats" GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO "transaction_stats_daily" SELECT merchant_id, min(business_id), min(partner_id), currency, date_trunc('day', bucket_start, 'UTC'), sum(volume), sum(revenue), sum(unsuccessful_volume), sum(unsuccessful_revenue), sum(sales_count) FROM "transaction_stats_hourly" GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO "transaction_activity_stats_hourly" SELECT merchant_id, min(business_id), min(partner_id), currency, date_trunc('hour', bucket_start, 'UTC'), sum(volume), sum(revenue), sum(unsuccessful_volume), sum(unsuccessful_revenue), sum(sales_count) FROM "transaction_activity_stats" GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO "transaction_activity_stats_daily" SELECT merchant_id, min(business_id), min(partner_id), currency, date_trunc('day', bucket_start, 'UTC'), sum(volume), sum(revenue), sum(unsuccessful_volume), sum(unsuccessful_revenue), sum(sales_count) FROM "transaction_activity_stats_hourly" GROUP BY 1, 4, 5;
