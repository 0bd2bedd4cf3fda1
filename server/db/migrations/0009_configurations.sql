CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"configuration_id" text NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"replaces_id" text,
	"replacement_completed_at" timestamp with time zone,
	"expiry_warned_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "configuration_payment_methods" (
	"configuration_id" text NOT NULL,
	"payment_method" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"display_name" text NOT NULL,
	"three_d_secure_policy" text,
	"minimum_amount_milli" bigint,
	"maximum_amount_milli" bigint,
	"currencies" text[] NOT NULL,
	CONSTRAINT "configuration_payment_methods_configuration_id_payment_method_pk" PRIMARY KEY("configuration_id","payment_method")
);
--> statement-breakpoint
CREATE TABLE "hosted_pages" (
	"reference" text PRIMARY KEY NOT NULL,
	"configuration_id" text NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"name" text NOT NULL,
	"design" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"reference" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"merchant_id" text,
	"configuration_id" text,
	"mime_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"byte_size" integer NOT NULL,
	"file_path" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_configuration_id_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "configuration_payment_methods" ADD CONSTRAINT "configuration_payment_methods_configuration_id_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosted_pages" ADD CONSTRAINT "hosted_pages_configuration_id_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."configurations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_configuration_idx" ON "api_keys" USING btree ("configuration_id","created_at");--> statement-breakpoint
CREATE INDEX "hosted_pages_configuration_idx" ON "hosted_pages" USING btree ("configuration_id","name","reference");--> statement-breakpoint
CREATE INDEX "images_owner_idx" ON "images" USING btree ("business_id","merchant_id","configuration_id");