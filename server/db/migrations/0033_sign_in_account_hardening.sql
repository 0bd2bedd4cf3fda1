ALTER TABLE "email_changes" ADD COLUMN "old_email" text;--> statement-breakpoint
ALTER TABLE "email_changes" ADD COLUMN "undo_token_hash" text;--> statement-breakpoint
ALTER TABLE "email_changes" ADD COLUMN "undo_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_changes" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_changes" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "redacted_html" text;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "redacted_text" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "failed_second_factor_codes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_undo_token_idx" ON "email_changes" USING btree ("undo_token_hash");