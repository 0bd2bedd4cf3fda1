CREATE TABLE "beneficiaries" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"kind" text NOT NULL,
	"company_name" text,
	"first_name" text,
	"last_name" text,
	"date_of_birth" text,
	"country_iso3166_alpha2" text,
	"name_on_bank_account" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text NOT NULL,
	"status" text NOT NULL,
	"created_by" text NOT NULL,
	"last_changed_by" text NOT NULL,
	"status_changed_by" text,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"last_updated_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_data" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"kind" text NOT NULL,
	"value" jsonb NOT NULL,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"reference" text NOT NULL,
	"title" text,
	"first_name" text NOT NULL,
	"middle_name" text,
	"last_name" text NOT NULL,
	"email_address" text,
	"date_of_birth" text,
	"billing_address" jsonb,
	"shipping_address" jsonb,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"last_updated_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchant_risk_signals_daily" (
	"merchant_id" text NOT NULL,
	"business_id" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"paid" integer DEFAULT 0 NOT NULL,
	"declined" integer DEFAULT 0 NOT NULL,
	"small_declines" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"paid_milli" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "merchant_risk_signals_daily_merchant_id_day_pk" PRIMARY KEY("merchant_id","day")
);
--> statement-breakpoint
CREATE TABLE "risk_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_by" text,
	"updated_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"beneficiary_id" text NOT NULL,
	"business_id" text NOT NULL,
	"entry_id" text NOT NULL,
	"score_permille" integer NOT NULL,
	"matched_name" text NOT NULL,
	"screened_name" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"resolved_by" text,
	"resolved_utc" timestamp with time zone,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_list_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"list" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"aliases" text[] NOT NULL,
	"date_of_birth" text,
	"country" text,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_list_entries" (
	"merchant_id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"score" integer NOT NULL,
	"signals" jsonb NOT NULL,
	"trend" jsonb NOT NULL,
	"status" text NOT NULL,
	"first_flagged_utc" timestamp with time zone NOT NULL,
	"last_computed_utc" timestamp with time zone NOT NULL,
	"status_changed_by" text,
	"status_changed_utc" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_list_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"author_id" text NOT NULL,
	"text" text NOT NULL,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD CONSTRAINT "beneficiaries_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_data" ADD CONSTRAINT "customer_data_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_alerts" ADD CONSTRAINT "screening_alerts_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_alerts" ADD CONSTRAINT "screening_alerts_entry_id_screening_list_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."screening_list_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beneficiaries_business_created_idx" ON "beneficiaries" USING btree ("business_id","created_utc","id");--> statement-breakpoint
CREATE INDEX "beneficiaries_business_status_idx" ON "beneficiaries" USING btree ("business_id","status","id");--> statement-breakpoint
CREATE INDEX "customer_data_customer_idx" ON "customer_data" USING btree ("customer_id","created_utc");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_merchant_reference_idx" ON "customers" USING btree ("merchant_id","reference");--> statement-breakpoint
CREATE INDEX "customers_merchant_name_idx" ON "customers" USING btree ("merchant_id","last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "customers_merchant_created_idx" ON "customers" USING btree ("merchant_id","created_utc","id");--> statement-breakpoint
CREATE INDEX "merchant_risk_signals_daily_day_idx" ON "merchant_risk_signals_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "screening_alerts_beneficiary_idx" ON "screening_alerts" USING btree ("beneficiary_id","created_utc");--> statement-breakpoint
CREATE INDEX "screening_alerts_status_idx" ON "screening_alerts" USING btree ("status","created_utc");--> statement-breakpoint
CREATE INDEX "watch_list_entries_score_idx" ON "watch_list_entries" USING btree ("score","merchant_id");--> statement-breakpoint
CREATE INDEX "watch_list_notes_merchant_idx" ON "watch_list_notes" USING btree ("merchant_id","created_utc");