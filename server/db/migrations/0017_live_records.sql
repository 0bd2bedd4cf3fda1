ALTER TABLE "portal_events" ADD COLUMN "resource" text;--> statement-breakpoint
ALTER TABLE "portal_events" ADD COLUMN "resource_id" text;--> statement-breakpoint
ALTER TABLE "portal_events" ADD COLUMN "business_id" text;--> statement-breakpoint
ALTER TABLE "portal_events" ADD COLUMN "merchant_id" text;--> statement-breakpoint
ALTER TABLE "portal_events" ADD COLUMN "user_id" text;