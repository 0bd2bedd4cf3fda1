-- The card's last four digits and first six (BIN), generated from the masked number, indexed newest first: the
-- transactions overview and the record search find a card by what a caller reads out, never by the full number.
ALTER TABLE "transactions" ADD COLUMN "card_last4" text GENERATED ALWAYS AS (right("card_masked", 4)) STORED;
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "card_bin" text GENERATED ALWAYS AS (left("card_masked", 6)) STORED;
--> statement-breakpoint
CREATE INDEX "transactions_card_last4_idx" ON "transactions" USING btree ("card_last4","created_at" DESC NULLS FIRST,"reference");
--> statement-breakpoint
CREATE INDEX "transactions_card_bin_idx" ON "transactions" USING btree ("card_bin","created_at" DESC NULLS FIRST,"reference");