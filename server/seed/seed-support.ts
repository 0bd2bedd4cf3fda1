// Support demo data on top of the world's tickets and comments (seed-world.ts): staff assignees on tickets being
// handled, internal notes, comment edit times and one ticket about a payment. Deterministic (derived from the ids
// the world made) and a few set-based statements, so it costs nothing next to the bulk load.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export async function seedSupport(tx: Db): Promise<void> {
  // Tickets somebody is working on have an assignee: customer service mostly, the technical admin for some bugs.
  await tx.execute(sql`
    UPDATE tickets t SET assignee_id = (
      SELECT u.id FROM users u
       WHERE u.email = CASE WHEN t.type = 'bug' AND right(t.id, 1) IN ('1', '4', '7') THEN 'admin@demo.test' ELSE 'service@demo.test' END)
     WHERE t.status IN ('InProgress', 'OnHold', 'Closed')`);
  // Comments were never edited; staff's hand-overs are internal notes the merchant does not see.
  await tx.execute(sql`
    UPDATE ticket_comments c SET last_updated_utc = c.created_utc,
           internal = (c.text = 'We have passed this to our settlements team.'
                       AND c.author_id = (SELECT u.id FROM users u WHERE u.email = 'service@demo.test'))`);
  // The owner's first ticket carries an internal note next to the public replies (the demo of internal notes).
  await tx.execute(sql`
    INSERT INTO ticket_comments (id, ticket_id, author_id, text, internal, created_utc, last_updated_utc, version)
    SELECT 'TCC90001', t.id, u.id, 'Checked the settlement batch: the totals differ by one late refund. Waiting for finance before we reply.',
           true, t.last_updated_utc, t.last_updated_utc, 1
      FROM tickets t, users u WHERE t.id = 'TCK00001' AND u.email = 'service@demo.test'`);
  // A dispute of the owner's business about its most recent payment ('Open a ticket about this').
  await tx.execute(sql`
    UPDATE tickets t SET linked_transaction_reference = x.reference, linked_payment_job_reference = x.payment_job_reference,
           merchant_id = x.merchant_id
      FROM (SELECT tr.reference, tr.payment_job_reference, tr.merchant_id, tr.business_id FROM transactions tr
             WHERE tr.business_id = (SELECT business_id FROM tickets WHERE id = 'TCK00002') AND tr.kind = 'payment'
             ORDER BY tr.created_at DESC, tr.reference LIMIT 1) x
     WHERE t.id = 'TCK00002' AND t.business_id = x.business_id`);
  // New tickets continue the seed's numbering (TCK00041 after TCK00040): the sequence starts after the highest one.
  await tx.execute(sql`
    SELECT setval('ticket_number_seq', GREATEST(1, COALESCE((SELECT max(substring(id from 4)::bigint) FROM tickets WHERE id ~ '^TCK[0-9]{1,15}$'), 0)),
                  EXISTS (SELECT 1 FROM tickets WHERE id ~ '^TCK[0-9]{1,15}$'))`);
}
