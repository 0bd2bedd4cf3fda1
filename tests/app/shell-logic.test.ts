// Small pure pieces of the shell: on-load notices, link handling, keyboard resizing, app-level paths.
import { describe, expect, it } from 'vitest';
import { isAppLevelPath } from '../../src/app/app-navigation.ts';
import { linkTarget } from '../../src/app/link-interception.ts';
import { noticesFor } from '../../src/app/notices.ts';
import { resizedLayout } from '../../src/app/pane-layout.ts';

describe('on-load notices', () => {
  it.each([
    [{ totalUnreadCount: 0, passwordExpiresInXDays: null, latestUnread: null }, []],
    [
      { totalUnreadCount: 2, passwordExpiresInXDays: null, latestUnread: { reference: 'N-7', title: 'Maintenance' } },
      [['info', 'New notification: Maintenance', '/notifications/N-7']],
    ],
    [{ totalUnreadCount: 0, passwordExpiresInXDays: 3, latestUnread: null }, [['danger', 'Your password expires in 3 days.', '/profile']]],
    [{ totalUnreadCount: 0, passwordExpiresInXDays: 1, latestUnread: null }, [['danger', 'Your password expires in 1 day.', '/profile']]],
    [{ totalUnreadCount: 0, passwordExpiresInXDays: 8, latestUnread: null }, []],
    [{ totalUnreadCount: 0, passwordExpiresInXDays: 0, latestUnread: null }, []],
  ])('%j → %j', (status, expected) => {
    expect(noticesFor(status).map((notice) => [notice.kind, notice.message, notice.link?.href])).toEqual(expected);
  });
});

describe('link handling', () => {
  function click(html: string, init: MouseEventInit = {}) {
    document.body.innerHTML = html;
    const anchor = document.querySelector('a') as HTMLAnchorElement;
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
    Object.defineProperty(event, 'target', { value: anchor });
    return linkTarget(event);
  }

  it.each([
    ['<a href="/users">u</a>', {}, { path: '/users', paneId: null, beside: false }],
    ['<div data-pane-id="pane-2"><a href="/users?x=1">u</a></div>', {}, { path: '/users?x=1', paneId: 'pane-2', beside: false }],
    ['<a href="/users">u</a>', { shiftKey: true }, { path: '/users', paneId: null, beside: true }],
    ['<a href="/users">u</a>', { ctrlKey: true }, { path: '/users', paneId: null, beside: true }],
    ['<a href="/users">u</a>', { metaKey: true }, { path: '/users', paneId: null, beside: true }],
    ['<a href="/users">u</a>', { button: 1 }, null],
    ['<a href="https://elsewhere.test/x">e</a>', {}, null],
    ['<a href="/users" target="_blank">u</a>', {}, null],
    ['<a href="/file.csv" download>d</a>', {}, null],
    ['<a href="#workspace">skip</a>', {}, null],
    ['<a href="/connect/authorize">c</a>', {}, null],
  ] as const)('%s %j → %j', (html, init, expected) => {
    expect(click(html, init)).toEqual(expected);
  });
});

describe('keyboard resizing', () => {
  it('moves the focused pane edge by the delta, the neighbour gives way, never below the minimum', () => {
    expect(resizedLayout({ a: 50, b: 50 }, ['a', 'b'], 'a', 10)).toEqual({ a: 60, b: 40 });
    expect(resizedLayout({ a: 50, b: 50 }, ['a', 'b'], 'b', 10)).toEqual({ a: 40, b: 60 });
    expect(resizedLayout({ a: 80, b: 20 }, ['a', 'b'], 'a', 10)).toEqual({ a: 85, b: 15 });
    expect(resizedLayout({ a: 20, b: 80 }, ['a', 'b'], 'a', -10)).toEqual({ a: 15, b: 85 });
  });
});

describe('app-level paths', () => {
  it.each([
    ['/', true],
    ['/sign-in?code=1', true],
    ['/sign-out', true],
    ['/signed-out', true],
    ['/user-invite?InviteId=1', true],
    ['/404', false],
    ['/dashboard', false],
  ])('%s → %s', (path, expected) => {
    expect(isAppLevelPath(path)).toBe(expected);
  });
});
