ALTER TABLE "user_invitations" ADD COLUMN "sign_in_token_hash" text;--> statement-breakpoint
ALTER TABLE "user_invitations" ADD COLUMN "sign_in_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_invitations" ADD COLUMN "signed_in_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "user_invitations_sign_in_token_idx" ON "user_invitations" USING btree ("sign_in_token_hash");