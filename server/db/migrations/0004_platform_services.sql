CREATE TABLE "card_vault" (
	"token" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"masked" text NOT NULL,
	"key_id" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_emails" (
	"id" text PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"template" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"provider_message_id" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "card_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "card_vault_merchant_fingerprint_idx" ON "card_vault" USING btree ("merchant_id","fingerprint");--> statement-breakpoint
CREATE INDEX "outbound_emails_claim_idx" ON "outbound_emails" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "outbound_emails_created_idx" ON "outbound_emails" USING btree ("created_at" DESC NULLS FIRST,"id");