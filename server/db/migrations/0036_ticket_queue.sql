CREATE SEQUENCE "public"."ticket_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "audience_user_ids" text[];--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "requester_updated_utc" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "staff_seen_utc" timestamp with time zone;--> statement-breakpoint
SELECT setval('ticket_number_seq', GREATEST(1, COALESCE((SELECT max(substring(id from 4)::bigint) FROM tickets WHERE id ~ '^TCK[0-9]{1,15}$'), 0)), EXISTS (SELECT 1 FROM tickets WHERE id ~ '^TCK[0-9]{1,15}$'));
