// The one renderer of notification content (readers and the author's preview): formatted runs, headings and lists
// as elements with text children only; hostile text stays text, and unsafe links make the content unreadable
// rather than clickable.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NotificationContentView } from '../../../panes/notifications/notification-content.tsx';
import { parseNotificationContent } from '../../../src/contract/notifications.ts';

const script = '<script>alert(1)</script>';

describe('the notification renderer', () => {
  it('renders the editor’s formatting as elements and hostile text as text', () => {
    const blocks = parseNotificationContent(
      JSON.stringify({
        blocks: [
          { type: 'heading', level: 1, inlines: [{ text: `Heads up ${script}` }] },
          {
            type: 'text',
            inlines: [
              { text: 'Fees ', bold: true },
              { text: 'change', italic: true },
              { text: ' — guide', href: 'https://example.com/guide' },
            ],
          },
          { type: 'richList', ordered: true, items: [[{ text: '<img src=x onerror=alert(1)>' }], [{ text: 'two' }]] },
        ],
      }),
    );
    const { container } = render(<NotificationContentView blocks={blocks} />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(`Heads up ${script}`);
    expect(container.querySelector('strong')?.textContent).toBe('Fees ');
    expect(container.querySelector('em')?.textContent).toBe('change');
    const link = screen.getByRole('link', { name: '— guide' });
    expect(link.getAttribute('href')).toBe('https://example.com/guide');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(
      within(container.querySelector('ol') as HTMLElement)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['<img src=x onerror=alert(1)>', 'two']);
    expect(container.querySelector('script, img, iframe, [onerror]')).toBeNull();
  });

  it('never renders a javascript: or data: link', () => {
    for (const href of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<script>alert(1)</script>', ' https://x']) {
      const blocks = parseNotificationContent(JSON.stringify({ blocks: [{ type: 'text', inlines: [{ text: 'click', href }] }] }));
      const { container, unmount } = render(<NotificationContentView blocks={blocks} />);
      expect(container.querySelector('a')).toBeNull();
      unmount();
    }
  });
});
