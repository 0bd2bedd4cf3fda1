-- The tickets, users and payment jobs overviews keep their filter presets in filter_presets, as the transactions
-- overview does. Each user's presets of those pages, kept until now in the user settings ticketsFilterPresets,
-- usersFilterPresets and paymentJobsFilterPresets (JSON lists of { identifier, name, filters }), become their personal
-- presets of the page (tickets, users, paymentJobs), and the settings go. So do the transactionsFilterPresets the
-- transactions overview kept before its presets moved (left behind by that move, unread since). As the overviews read those settings,
-- entries that are not presets are dropped and so are filters that are not text; names are trimmed to the stored
-- presets' 50 characters, the last of two presets of the same name (any case) is kept, and a preset of the same name
-- the user already keeps in the database stays as it is. A setting that is not JSON is removed with nothing copied.
DO $$
DECLARE
  stored record;
  presets jsonb;
BEGIN
  FOR stored IN
    SELECT user_id, key, value FROM user_settings WHERE key IN ('ticketsFilterPresets', 'usersFilterPresets', 'paymentJobsFilterPresets', 'transactionsFilterPresets')
  LOOP
    BEGIN
      presets := stored.value::jsonb;
    EXCEPTION WHEN others THEN
      presets := NULL;
    END;
    IF jsonb_typeof(presets) = 'array' THEN
      INSERT INTO filter_presets (id, page, name, filters, sharing, owner_id)
      SELECT
        'FP' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)),
        entry.page,
        entry.name,
        entry.filters,
        'personal',
        stored.user_id
      FROM (
        SELECT DISTINCT ON (lower(left(btrim(list.element->>'name'), 50)))
          regexp_replace(stored.key, 'FilterPresets$', '') AS page,
          left(btrim(list.element->>'name'), 50) AS name,
          (
            SELECT coalesce(jsonb_object_agg(kept.key, kept.value), '{}'::jsonb)
            FROM (
              SELECT pair.key, pair.value
              FROM jsonb_each(list.element->'filters') AS pair
              WHERE jsonb_typeof(pair.value) = 'string'
                AND pair.value #>> '{}' <> ''
                AND length(pair.value #>> '{}') <= 512
                AND pair.key ~ '^[A-Za-z][A-Za-z0-9]{0,39}$'
              ORDER BY pair.key
              LIMIT 20
            ) AS kept
          ) AS filters
        FROM jsonb_array_elements(presets) WITH ORDINALITY AS list(element, place)
        WHERE jsonb_typeof(list.element) = 'object'
          AND jsonb_typeof(list.element->'identifier') = 'string'
          AND jsonb_typeof(list.element->'name') = 'string'
          AND btrim(list.element->>'name') <> ''
          AND jsonb_typeof(list.element->'filters') = 'object'
        ORDER BY lower(left(btrim(list.element->>'name'), 50)), list.place DESC
      ) AS entry
      WHERE NOT EXISTS (
        SELECT 1 FROM filter_presets AS existing
        WHERE existing.owner_id = stored.user_id AND existing.page = entry.page AND existing.sharing = 'personal' AND lower(existing.name) = lower(entry.name)
      );
    END IF;
  END LOOP;
  DELETE FROM user_settings WHERE key IN ('ticketsFilterPresets', 'usersFilterPresets', 'paymentJobsFilterPresets', 'transactionsFilterPresets');
END
$$;
