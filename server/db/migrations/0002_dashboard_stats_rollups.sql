CREATE TABLE "transaction_declines_daily" (
	"merchant_id" text NOT NULL,
	"business_id" text NOT NULL,
	"partner_id" text,
	"currency" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"decline_count" bigint DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transaction_declines_daily_merchant_id_currency_bucket_start_reason_pk" PRIMARY KEY("merchant_id","currency","bucket_start","reason")
);
--> statement-breakpoint
CREATE TABLE "transaction_stats_daily" (
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
	CONSTRAINT "transaction_stats_daily_merchant_id_currency_bucket_start_pk" PRIMARY KEY("merchant_id","currency","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "transaction_stats_hourly" (
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
	CONSTRAINT "transaction_stats_hourly_merchant_id_currency_bucket_start_pk" PRIMARY KEY("merchant_id","currency","bucket_start")
);
--> statement-breakpoint
DROP INDEX "transaction_stats_business_idx";--> statement-breakpoint
DROP INDEX "transaction_stats_partner_idx";--> statement-breakpoint
ALTER TABLE "queued_reports" ADD COLUMN "ordering" jsonb;--> statement-breakpoint
CREATE INDEX "transaction_declines_daily_business_idx" ON "transaction_declines_daily" USING btree ("business_id","currency","bucket_start","reason","decline_count","amount");--> statement-breakpoint
CREATE INDEX "transaction_declines_daily_partner_idx" ON "transaction_declines_daily" USING btree ("partner_id","currency","bucket_start","reason","decline_count","amount");--> statement-breakpoint
CREATE INDEX "transaction_stats_daily_business_idx" ON "transaction_stats_daily" USING btree ("business_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_stats_daily_partner_idx" ON "transaction_stats_daily" USING btree ("partner_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_stats_hourly_business_idx" ON "transaction_stats_hourly" USING btree ("business_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_stats_hourly_partner_idx" ON "transaction_stats_hourly" USING btree ("partner_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_stats_business_idx" ON "transaction_stats" USING btree ("business_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");--> statement-breakpoint
CREATE INDEX "transaction_stats_partner_idx" ON "transaction_stats" USING btree ("partner_id","currency","bucket_start","volume","revenue","unsuccessful_volume","unsuccessful_revenue","sales_count");