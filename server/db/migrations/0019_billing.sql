CREATE TABLE "billing_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"month" text NOT NULL,
	"created_by" text NOT NULL,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"invoice_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "invoice_counters_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"run_id" text,
	"month" text NOT NULL,
	"business_id" text NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"issued_utc" timestamp with time zone NOT NULL,
	"due_utc" timestamp with time zone NOT NULL,
	"paid_utc" timestamp with time zone,
	"fees_minor" bigint NOT NULL,
	"minimum_top_up_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"lines" jsonb NOT NULL,
	"credited_invoice_id" text,
	"reason" text,
	"created_by" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "billing_runs_month_idx" ON "billing_runs" USING btree ("month");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_idx" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE INDEX "invoices_business_idx" ON "invoices" USING btree ("business_id","issued_utc");--> statement-breakpoint
CREATE INDEX "invoices_month_idx" ON "invoices" USING btree ("month","business_id");--> statement-breakpoint
CREATE INDEX "invoices_credited_idx" ON "invoices" USING btree ("credited_invoice_id");