// Focus never falls to the page's body. A command (from the palette or a key) may remove or disable the control that
// had focus (a row marked, a panel replaced, a button that no longer applies); screens move focus to what changed
// where they know better, and this is the net under them: once the command has finished and the page has drawn, focus
// left on the body goes to the open dialog, else to the focused pane, so Tab, the screen reader and the next key go on
// from there. (A shell-wide focusout watch was tried and dropped: moving focus between the two keys of a G sequence
// broke the sequence.)

const nextFrame = () =>
  new Promise<void>((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => resolve());
    else setTimeout(resolve, 16);
  });

/** Where lost focus goes: the topmost open dialog, else the focused pane; null when focus is not lost. */
export function lostFocusTarget(doc: Document = document): HTMLElement | null {
  const active = doc.activeElement;
  if (active && active !== doc.body && active.isConnected) return null;
  const dialogs = [...doc.querySelectorAll<HTMLElement>('[role="dialog"], [role="alertdialog"], dialog[open]')].filter(
    (dialog) => !dialog.closest('[hidden], [aria-hidden="true"]') && getComputedStyle(dialog).visibility !== 'hidden',
  );
  const dialog = dialogs.at(-1);
  if (dialog) return dialog.querySelector<HTMLElement>('[autofocus], input:not([disabled]), button:not([disabled]), [tabindex]:not([tabindex="-1"])') ?? dialog;
  return doc.querySelector<HTMLElement>('section[data-pane-id][data-focused="true"]') ?? doc.querySelector<HTMLElement>('main, [role="main"]');
}

export function restoreLostFocus(doc: Document = document): void {
  const target = lostFocusTarget(doc);
  if (!target) return;
  if (!target.hasAttribute('tabindex') && target.tabIndex < 0) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

/** After a command's run (its promise, if any) and two frames: focus lost to the body is put back. */
export async function keepFocusAfter(outcome: unknown): Promise<void> {
  try {
    await outcome;
  } catch {
    // The command reports its own failure (a toast); focus is still looked after.
  }
  await nextFrame();
  await nextFrame();
  restoreLostFocus();
}
