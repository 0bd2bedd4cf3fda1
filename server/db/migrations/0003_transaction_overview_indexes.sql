ALTER TABLE "transactions" ADD COLUMN "amount_milli" bigint GENERATED ALWAYS AS ("amount_minor" * CASE WHEN "currency" IN ('BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF') THEN 1000 WHEN "currency" IN ('BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1 ELSE 10 END) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "transactions_merchant_amount_idx" ON "transactions" USING btree ("merchant_id","amount_milli","reference");--> statement-breakpoint
CREATE INDEX "transactions_business_amount_idx" ON "transactions" USING btree ("business_id","amount_milli","reference");--> statement-breakpoint
CREATE INDEX "transactions_partner_amount_idx" ON "transactions" USING btree ("partner_id","amount_milli","reference");--> statement-breakpoint
CREATE INDEX "transactions_amount_idx" ON "transactions" USING btree ("amount_milli","reference");--> statement-breakpoint
CREATE INDEX "transactions_status_idx" ON "transactions" USING btree ("status","created_at" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "transactions_reference_pattern_idx" ON "transactions" USING btree ("reference" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "transactions_job_pattern_idx" ON "transactions" USING btree ("payment_job_reference" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "transactions_customer_email_idx" ON "transactions" USING btree (lower("customer_email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "transactions_payment_method_idx" ON "transactions" USING btree ("payment_method");--> statement-breakpoint
CREATE INDEX "transactions_channel_idx" ON "transactions" USING btree ("channel");--> statement-breakpoint
CREATE INDEX "transactions_currency_idx" ON "transactions" USING btree ("currency");--> statement-breakpoint
CREATE INDEX "transactions_kind_idx" ON "transactions" USING btree ("kind");