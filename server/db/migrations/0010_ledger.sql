CREATE TABLE "business_account_groups" (
	"account_number" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"account_number" text,
	"kind" text NOT NULL,
	"business_id" text,
	"merchant_id" text,
	"currency" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"posting_id" text NOT NULL,
	"account_id" text NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text,
	"category" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"value_at" timestamp with time zone NOT NULL,
	"transaction_reference" text,
	"batch_id" text
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" text PRIMARY KEY NOT NULL,
	"category" text NOT NULL,
	"transaction_reference" text,
	"batch_id" text,
	"business_id" text NOT NULL,
	"merchant_id" text,
	"currency" text NOT NULL,
	"value_at" timestamp with time zone NOT NULL,
	"posted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"group_kind" text NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text,
	"currency" text NOT NULL,
	"transfer_date" timestamp with time zone NOT NULL,
	"maturity_date" timestamp with time zone NOT NULL,
	"amount_minor" bigint NOT NULL,
	"sale_amount_minor" bigint NOT NULL,
	"batch_id" text
);
--> statement-breakpoint
CREATE TABLE "merchant_account_groups" (
	"account_number" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"currency" text NOT NULL,
	"reserve_basis_points" integer DEFAULT 0 NOT NULL,
	"reserve_days" integer DEFAULT 90 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pricing_plan_rates" (
	"merchant_id" text NOT NULL,
	"currency" text NOT NULL,
	"payment_method" text NOT NULL,
	"percentage_basis_points" integer NOT NULL,
	"fixed_minor" bigint NOT NULL,
	CONSTRAINT "pricing_plan_rates_merchant_id_currency_payment_method_pk" PRIMARY KEY("merchant_id","currency","payment_method")
);
--> statement-breakpoint
CREATE TABLE "pricing_plans" (
	"merchant_id" text NOT NULL,
	"business_id" text NOT NULL,
	"currency" text NOT NULL,
	"name" text NOT NULL,
	"monthly_minimum_minor" bigint DEFAULT 0 NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	CONSTRAINT "pricing_plans_merchant_id_currency_pk" PRIMARY KEY("merchant_id","currency")
);
--> statement-breakpoint
CREATE TABLE "remittance_settings" (
	"account_number" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"frequency" text NOT NULL,
	"day_of_period" integer DEFAULT 1 NOT NULL,
	"start_date" text NOT NULL,
	"next_payment_date" text NOT NULL,
	"next_schedule_date" text NOT NULL,
	"beneficiary" jsonb NOT NULL,
	"iban_masked" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"currency" text NOT NULL,
	"batch_start" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"sales_count" integer DEFAULT 0 NOT NULL,
	"sales_minor" bigint DEFAULT 0 NOT NULL,
	"refunds_minor" bigint DEFAULT 0 NOT NULL,
	"reversals_minor" bigint DEFAULT 0 NOT NULL,
	"fees_minor" bigint DEFAULT 0 NOT NULL,
	"reserve_minor" bigint DEFAULT 0 NOT NULL,
	"net_minor" bigint DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "business_account_groups_business_idx" ON "business_account_groups" USING btree ("business_id","currency");--> statement-breakpoint
CREATE INDEX "ledger_accounts_group_idx" ON "ledger_accounts" USING btree ("account_number","kind");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","value_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_batch_idx" ON "ledger_entries" USING btree ("batch_id","account_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_posting_idx" ON "ledger_entries" USING btree ("posting_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_transaction_idx" ON "ledger_postings" USING btree ("transaction_reference");--> statement-breakpoint
CREATE INDEX "ledger_postings_category_idx" ON "ledger_postings" USING btree ("category","value_at");--> statement-breakpoint
CREATE INDEX "ledger_transfers_group_idx" ON "ledger_transfers" USING btree ("account_number","transfer_date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_account_groups_merchant_idx" ON "merchant_account_groups" USING btree ("merchant_id","currency");--> statement-breakpoint
CREATE INDEX "pricing_plans_business_idx" ON "pricing_plans" USING btree ("business_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_batches_group_day_idx" ON "settlement_batches" USING btree ("account_number","batch_start");--> statement-breakpoint
CREATE INDEX "settlement_batches_open_idx" ON "settlement_batches" USING btree ("status","batch_start");