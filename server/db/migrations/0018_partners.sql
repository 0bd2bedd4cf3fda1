CREATE TABLE "commission_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"name" text NOT NULL,
	"valid_from" text NOT NULL,
	"valid_to" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "commission_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"priority" integer NOT NULL,
	"description" text NOT NULL,
	"volume_from_minor" bigint DEFAULT 0 NOT NULL,
	"volume_to_minor" bigint,
	"percentage_basis_points" integer DEFAULT 0 NOT NULL,
	"fixed_minor" bigint DEFAULT 0 NOT NULL,
	"channel" text,
	"currency" text,
	"payment_method" text,
	"card_type" text
);
--> statement-breakpoint
ALTER TABLE "commission_plans" ADD CONSTRAINT "commission_plans_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_rules" ADD CONSTRAINT "commission_rules_plan_id_commission_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."commission_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_plans_partner_idx" ON "commission_plans" USING btree ("partner_id","valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "commission_rules_plan_priority_idx" ON "commission_rules" USING btree ("plan_id","priority");