// The dashboard's date control: its periods are one tab stop; the arrows move between them, Enter
// chooses one.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DateRangeDialog } from '../../../panes/dashboard/date-range-dialog.tsx';

describe('the dashboard date control', () => {
  it('moves between the periods with the arrows and leaves them with one Tab', async () => {
    const user = userEvent.setup();
    const onChoosePeriod = vi.fn();
    render(<DateRangeDialog open today="2026-03-11" initial={null} onChoosePeriod={onChoosePeriod} onChooseRange={vi.fn()} onClose={vi.fn()} />);
    const today = await screen.findByRole('button', { name: 'Today' });
    // The dialog opens on its first field; the periods are one Shift+Tab before it.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('From')));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(today);
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'This week' }));
    await user.keyboard('{End}{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'This year' }));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(today);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('From'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(today);
    await user.keyboard('{ArrowRight}{Enter}');
    expect(onChoosePeriod).toHaveBeenCalledWith({ interval: 'day', startDate: '2026-03-10', endDate: '2026-03-10' });
  });
});
