CREATE INDEX "customers_id_pattern_idx" ON "customers" USING btree ("id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_reference_pattern_idx" ON "customers" USING btree ("reference" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payment_jobs_reference_pattern_idx" ON "payment_jobs" USING btree ("reference" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payment_jobs_order_number_pattern_idx" ON "payment_jobs" USING btree ("order_number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payment_jobs_created_idx" ON "payment_jobs" USING btree ("create_date_time_utc" DESC NULLS FIRST,"reference");--> statement-breakpoint
CREATE INDEX "tickets_id_pattern_idx" ON "tickets" USING btree ("id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_id_pattern_idx" ON "users" USING btree ("id" text_pattern_ops);