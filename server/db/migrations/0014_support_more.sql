CREATE TABLE "portal_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "publish_at_utc" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "audience_partner_ids" text[];--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "audience_business_ids" text[];--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "last_edited_by" text;