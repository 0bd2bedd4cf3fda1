CREATE SEQUENCE "public"."user_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
SELECT setval('user_number_seq', GREATEST(1, COALESCE((SELECT max(substring(id from 4)::bigint) FROM users WHERE id ~ '^USR[0-9]{1,15}$'), 0)), EXISTS (SELECT 1 FROM users WHERE id ~ '^USR[0-9]{1,15}$'));
