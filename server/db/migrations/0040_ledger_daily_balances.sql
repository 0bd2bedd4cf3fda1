CREATE TABLE "ledger_daily_balances" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"category" text NOT NULL,
	"credits" integer NOT NULL,
	"credits_minor" bigint NOT NULL,
	"debits" integer NOT NULL,
	"debits_minor" bigint NOT NULL,
	CONSTRAINT "ledger_daily_balances_account_id_day_category_pk" PRIMARY KEY("account_id","day","category")
);
--> statement-breakpoint
CREATE INDEX "ledger_entries_account_amount_idx" ON "ledger_entries" USING btree ("account_id","amount_minor","id");--> statement-breakpoint
-- Backfill: the checkpoints of every entry already posted to an account with a business (server/ledger/daily-balances.ts
-- writes the same rows as entries are posted), each entry on its business day in its business's zone.
INSERT INTO "ledger_daily_balances" ("account_id", "day", "category", "credits", "credits_minor", "debits", "debits_minor")
SELECT e."account_id", (e."value_at" AT TIME ZONE coalesce(b."time_zone", 'Europe/London'))::date, e."category",
  count(*) FILTER (WHERE e."amount_minor" >= 0), coalesce(sum(e."amount_minor") FILTER (WHERE e."amount_minor" >= 0), 0),
  count(*) FILTER (WHERE e."amount_minor" < 0), coalesce(sum(e."amount_minor") FILTER (WHERE e."amount_minor" < 0), 0)
FROM "ledger_entries" e
JOIN "ledger_accounts" a ON a."id" = e."account_id" AND a."business_id" IS NOT NULL
LEFT JOIN "businesses" b ON b."id" = a."business_id"
GROUP BY 1, 2, 3;
