CREATE TABLE "bulk_job_items" (
	"job_id" text NOT NULL,
	"item_id" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bulk_job_items_job_id_item_id_pk" PRIMARY KEY("job_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "bulk_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"client_key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"area" text NOT NULL,
	"action" text NOT NULL,
	"scope" jsonb NOT NULL,
	"filters" jsonb NOT NULL,
	"all_matching" boolean NOT NULL,
	"included_ids" jsonb NOT NULL,
	"excluded_ids" jsonb NOT NULL,
	"params" jsonb NOT NULL,
	"status" text NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"total_items" integer DEFAULT 0 NOT NULL,
	"processed_items" integer DEFAULT 0 NOT NULL,
	"succeeded_items" integer DEFAULT 0 NOT NULL,
	"failed_items" integer DEFAULT 0 NOT NULL,
	"cursor" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"report_id" text,
	"result_path" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bulk_job_items" ADD CONSTRAINT "bulk_job_items_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_jobs_client_key_idx" ON "bulk_jobs" USING btree ("user_id","client_key");--> statement-breakpoint
CREATE INDEX "bulk_jobs_claim_idx" ON "bulk_jobs" USING btree ("status","created_at");