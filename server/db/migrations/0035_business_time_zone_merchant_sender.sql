ALTER TABLE "businesses" ADD COLUMN "time_zone" text DEFAULT 'Europe/London' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "sender_name" text;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "reply_to" text;