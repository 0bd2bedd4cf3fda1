// The modal: a titled dialog that keeps focus inside; Escape, outside click, X and the close action each
// close it unless switched off.
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Modal, type ModalProps } from '../../src/ui/modal.tsx';

function renderModal(props: Partial<ModalProps> = {}) {
  const onClose = vi.fn();
  render(
    <>
      <button type="button">Outside</button>
      <Modal open title="Edit address" onClose={onClose} closeActionLabel="Cancel" {...props}>
        <label>Street <input /></label>
      </Modal>
    </>,
  );
  return onClose;
}

describe('Modal', () => {
  it('is a dialog named by its title, with focus inside', async () => {
    renderModal();
    const dialog = screen.getByRole('dialog', { name: 'Edit address' });
    await vi.waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    expect(dialog.getAttribute('aria-modal')).toBe('true');
  });

  it.each([
    ['Escape', (user: ReturnType<typeof userEvent.setup>) => user.keyboard('{Escape}'), 'escape'],
    ['the X button', (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Close' })), 'closeButton'],
    ['the close action', (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Cancel' })), 'action'],
  ] as const)('closes with %s', async (_name, act, reason) => {
    const user = userEvent.setup();
    const onClose = renderModal();
    await vi.waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
    await act(user);
    expect(onClose).toHaveBeenCalledWith(reason);
  });

  it('closes on an outside click', async () => {
    const onClose = renderModal();
    await act(async () => {
      fireEvent.mouseDown(document.querySelector('.modal-backdrop') as Element);
    });
    expect(onClose).toHaveBeenCalledWith('outside');
  });

  it('keeps each way closed when switched off', async () => {
    const user = userEvent.setup();
    const onClose = renderModal({ closeOnEscape: false, closeOnOutsideClick: false, showCloseButton: false, closeActionLabel: undefined as unknown as string });
    await user.keyboard('{Escape}');
    await act(async () => {
      fireEvent.mouseDown(document.querySelector('.modal-backdrop') as Element);
    });
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it.each(['sm', 'md', 'lg', 'xl', 'xxl'] as const)('has size %s', (size) => {
    renderModal({ size });
    expect(screen.getByRole('dialog').className).toContain(`modal-${size}`);
  });

  it('renders nothing when closed', () => {
    renderModal({ open: false });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
