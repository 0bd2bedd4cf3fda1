CREATE TABLE "filter_presets" (
	"id" text PRIMARY KEY NOT NULL,
	"page" text NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"relative_date" text,
	"sharing" text NOT NULL,
	"owner_id" text NOT NULL,
	"business_id" text,
	"role" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_utc" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_utc" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filter_presets" ADD CONSTRAINT "filter_presets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filter_presets" ADD CONSTRAINT "filter_presets_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filter_presets_owner_idx" ON "filter_presets" USING btree ("owner_id","page");--> statement-breakpoint
CREATE INDEX "filter_presets_business_idx" ON "filter_presets" USING btree ("business_id","page");--> statement-breakpoint
CREATE INDEX "filter_presets_role_idx" ON "filter_presets" USING btree ("role","page");--> statement-breakpoint
CREATE UNIQUE INDEX "filter_presets_default_idx" ON "filter_presets" USING btree ("page","business_id") WHERE "filter_presets"."is_default";