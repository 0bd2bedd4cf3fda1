ALTER TABLE "beneficiaries" ADD COLUMN "status_changed_utc" timestamp with time zone;--> statement-breakpoint
-- An approved or rejected beneficiary's status change is its latest change (a change of details sends it back to
-- Referred), so that change happened at last_updated_utc.
UPDATE "beneficiaries" SET "status_changed_utc" = "last_updated_utc" WHERE "status_changed_by" IS NOT NULL AND "status" IN ('Approved', 'Rejected');
