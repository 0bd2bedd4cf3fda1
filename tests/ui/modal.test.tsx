// The modal: a titled dialog that keeps focus inside; Escape, outside click, X and the close action each
// close it unless switched off.
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal, type ModalProps } from '../../src/ui/modal.tsx';

function renderModal(props: Partial<ModalProps> = {}) {
  const onClose = vi.fn();
  render(
    <>
      <button type="button">Outside</button>
      <Modal open title="Edit address" onClose={onClose} closeActionLabel="Cancel" {...props}>
        <label>
          Street <input />
        </label>
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

/** A button that opens an address dialog. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Edit
      </button>
      <Modal open={open} title="Edit address" onClose={() => setOpen(false)} closeActionLabel="Cancel">
        <label>
          Street <input />
        </label>
      </Modal>
    </>
  );
}

describe('Modal focus and Ctrl+Enter', () => {
  it('opens on its first field, not on ×', async () => {
    renderModal();
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Street' })));
  });

  it('opens on its primary action when it has no field', async () => {
    render(
      <Modal
        open
        title="Discard draft"
        onClose={() => undefined}
        closeActionLabel="Cancel"
        footer={
          <button type="button" className="button button-primary">
            Discard
          </button>
        }
      >
        <p>The draft goes.</p>
      </Modal>,
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Discard' })));
  });

  it('gives the focus back to what opened it on closing', async () => {
    const user = userEvent.setup();
    render(<Opener />);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Street' })));
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit' })));
  });

  it('submits its form with Ctrl+Enter, from any field, through the submit button in the footer', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <Modal
        open
        title="Add note"
        onClose={() => undefined}
        footer={
          <button type="submit" form="note-form" className="button button-primary">
            Add note
          </button>
        }
      >
        <form id="note-form" onSubmit={onSubmit}>
          <label>
            Note <textarea />
          </label>
        </form>
      </Modal>,
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Note' })));
    await user.keyboard('Checked{Control>}{Enter}{/Control}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('does not submit with Ctrl+Enter while the submit button is disabled', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <Modal
        open
        title="Add note"
        onClose={() => undefined}
        footer={
          <button type="submit" form="note-form" className="button button-primary" disabled>
            Add note
          </button>
        }
      >
        <form id="note-form" onSubmit={onSubmit}>
          <label>
            Note <textarea />
          </label>
        </form>
      </Modal>,
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Note' })));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('presses the primary action with Ctrl+Enter when its fields are not in a form (date range, wizard, new API key)', async () => {
    const user = userEvent.setup();
    const onCreate = vi.fn();
    const onDelete = vi.fn();
    render(
      <Modal
        open
        title="New API key"
        onClose={() => undefined}
        footer={
          <>
            <button type="button" className="button button-danger" onClick={onDelete}>
              Delete
            </button>
            <button type="button" className="button button-primary" onClick={onCreate}>
              Create API key
            </button>
          </>
        }
      >
        <label>
          Name <input />
        </label>
      </Modal>,
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' })));
    await user.keyboard('Shop{Control>}{Enter}{/Control}');
    expect(onCreate).toHaveBeenCalledTimes(1);
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('presses nothing with Ctrl+Enter in a dialog without fields, nor a disabled primary action', async () => {
    const user = userEvent.setup();
    const onDiscard = vi.fn();
    const onCreate = vi.fn();
    const { unmount } = render(
      <Modal
        open
        title="Discard draft"
        onClose={() => undefined}
        footer={
          <button type="button" className="button button-primary" onClick={onDiscard}>
            Discard
          </button>
        }
      >
        <p>The draft goes.</p>
      </Modal>,
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Discard' })));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onDiscard).not.toHaveBeenCalled();
    unmount();
    render(
      <Modal
        open
        title="New API key"
        onClose={() => undefined}
        footer={
          <button type="button" className="button button-primary" disabled onClick={onCreate}>
            Create API key
          </button>
        }
      >
        <label>
          Name <input />
        </label>
      </Modal>,
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' })));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onCreate).not.toHaveBeenCalled();
  });
});
