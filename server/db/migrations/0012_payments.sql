CREATE TABLE "payment_idempotency_keys" (
	"user_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_idempotency_keys_user_id_idempotency_key_pk" PRIMARY KEY("user_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"refund_id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"payment_job_reference" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"notify_customer" boolean DEFAULT false NOT NULL,
	"steps" jsonb NOT NULL,
	"requested_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"payment_job_reference" text NOT NULL,
	"step" text NOT NULL,
	"amount_minor" bigint,
	"detail" text,
	"date_time_utc" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_jobs" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_steps_payment_idx" ON "payment_steps" USING btree ("payment_id","id");--> statement-breakpoint
CREATE INDEX "payment_jobs_business_created_idx" ON "payment_jobs" USING btree ("business_id","create_date_time_utc" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "payment_jobs_partner_created_idx" ON "payment_jobs" USING btree ("partner_id","create_date_time_utc" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "payment_jobs_order_number_idx" ON "payment_jobs" USING btree ("order_number");