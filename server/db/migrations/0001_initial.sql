CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"event" text NOT NULL,
	"date_time_utc" timestamp with time zone NOT NULL,
	"business_id" text,
	"merchant_id" text,
	"meta_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recorded_utc" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "businesses" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"partner_id" text,
	"live" boolean DEFAULT true NOT NULL,
	"cam_auto_remittance" boolean DEFAULT true NOT NULL,
	"business_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "configurations" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"business_id" text NOT NULL,
	"trade_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"switches" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"name" text NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	"gross_settlement" boolean DEFAULT false NOT NULL,
	"currencies" text[] NOT NULL,
	"merchant_url" text,
	"support_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_reads" (
	"user_id" text NOT NULL,
	"reference" text NOT NULL,
	"read_utc" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_reads_user_id_reference_pk" PRIMARY KEY("user_id","reference")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"reference" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"status" text NOT NULL,
	"view_restriction" text NOT NULL,
	"published_utc" timestamp with time zone,
	"last_edited_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_payloads" (
	"id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_payloads_id_type_pk" PRIMARY KEY("id","type")
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_jobs" (
	"reference" text PRIMARY KEY NOT NULL,
	"partner_id" text,
	"business_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"configuration_id" text NOT NULL,
	"create_date_time_utc" timestamp with time zone NOT NULL,
	"expiration_date_time_utc" timestamp with time zone,
	"paid_date_time_utc" timestamp with time zone,
	"order_number" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"order" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queued_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"report_type" text NOT NULL,
	"file_type" text NOT NULL,
	"status" text NOT NULL,
	"context" jsonb NOT NULL,
	"filters" jsonb NOT NULL,
	"columns" jsonb NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"total_rows" integer,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"generated_at" timestamp with time zone,
	"expiration_date_time" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"file_path" text,
	"file_size" bigint,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"ticket_id" text NOT NULL,
	"author_id" text NOT NULL,
	"text" text NOT NULL,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text,
	"created_by" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"priority" text NOT NULL,
	"subject" text NOT NULL,
	"description" text NOT NULL,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"last_updated_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_stats" (
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
	CONSTRAINT "transaction_stats_merchant_id_currency_bucket_start_pk" PRIMARY KEY("merchant_id","currency","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"reference" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"parent_reference" text,
	"partner_id" text,
	"business_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"configuration_id" text NOT NULL,
	"payment_job_reference" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"payment_method" text NOT NULL,
	"channel" text NOT NULL,
	"ewallet_type" text,
	"card_masked" text,
	"card_number" text,
	"decline_reason" text,
	"customer_email" text,
	"originating_ip_address" text
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"level" text NOT NULL,
	"partner_id" text,
	"business_id" text,
	"merchant_id" text
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_settings_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"failed_sign_ins" integer DEFAULT 0 NOT NULL,
	"lockout_end_date_utc" timestamp with time zone,
	"password_expires_utc" timestamp with time zone,
	"internal" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "configurations" ADD CONSTRAINT "configurations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "configurations" ADD CONSTRAINT "configurations_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_reference_notifications_reference_fk" FOREIGN KEY ("reference") REFERENCES "public"."notifications"("reference") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queued_reports" ADD CONSTRAINT "queued_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_business_idx" ON "audit_events" USING btree ("business_id","date_time_utc");--> statement-breakpoint
CREATE INDEX "audit_events_merchant_idx" ON "audit_events" USING btree ("merchant_id","date_time_utc");--> statement-breakpoint
CREATE INDEX "businesses_name_idx" ON "businesses" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "businesses_partner_idx" ON "businesses" USING btree ("partner_id","name");--> statement-breakpoint
CREATE INDEX "businesses_search_idx" ON "businesses" USING gin ((lower("name") || ' ' || lower("id")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "configurations_merchant_idx" ON "configurations" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "merchants_business_idx" ON "merchants" USING btree ("business_id","name","id");--> statement-breakpoint
CREATE INDEX "merchants_search_idx" ON "merchants" USING gin ((lower("name") || ' ' || lower("id")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "oidc_payloads_grant_idx" ON "oidc_payloads" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_payloads_uid_idx" ON "oidc_payloads" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oidc_payloads_user_code_idx" ON "oidc_payloads" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "payment_jobs_merchant_created_idx" ON "payment_jobs" USING btree ("merchant_id","create_date_time_utc" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "queued_reports_user_idx" ON "queued_reports" USING btree ("user_id","queued_at");--> statement-breakpoint
CREATE INDEX "queued_reports_claim_idx" ON "queued_reports" USING btree ("status","queued_at");--> statement-breakpoint
CREATE INDEX "tickets_business_idx" ON "tickets" USING btree ("business_id","created_utc");--> statement-breakpoint
CREATE INDEX "transaction_stats_business_idx" ON "transaction_stats" USING btree ("business_id","currency","bucket_start");--> statement-breakpoint
CREATE INDEX "transaction_stats_partner_idx" ON "transaction_stats" USING btree ("partner_id","currency","bucket_start");--> statement-breakpoint
CREATE INDEX "transactions_merchant_created_idx" ON "transactions" USING btree ("merchant_id","created_at" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "transactions_business_created_idx" ON "transactions" USING btree ("business_id","created_at" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "transactions_partner_created_idx" ON "transactions" USING btree ("partner_id","created_at" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "transactions_created_idx" ON "transactions" USING btree ("created_at" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "transactions_job_idx" ON "transactions" USING btree ("payment_job_reference");--> statement-breakpoint
CREATE INDEX "transactions_parent_idx" ON "transactions" USING btree ("parent_reference");--> statement-breakpoint
CREATE INDEX "user_roles_user_idx" ON "user_roles" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree (lower("email"));