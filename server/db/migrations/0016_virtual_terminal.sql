CREATE TABLE "virtual_terminal_settings" (
	"configuration_id" text PRIMARY KEY NOT NULL,
	"default_currency" text,
	"order_confirmation_emails" boolean DEFAULT false NOT NULL,
	"saved_cards_allowed" boolean DEFAULT true NOT NULL,
	"saved_card_limit" integer DEFAULT 5 NOT NULL,
	"default_order_line_type" text DEFAULT 'physicalItem' NOT NULL,
	"ask_shipping_address" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "virtual_terminal_settings" ADD CONSTRAINT "virtual_terminal_settings_configuration_id_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."configurations"("id") ON DELETE cascade ON UPDATE no action;