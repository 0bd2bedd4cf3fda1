// Row cursor requests: what the table commands (j, k, Enter, Shift+Enter) ask of a table pane. Kept apart from
// the filters module so the shell's commands do not pull the filter code into the first load.

export const tableRowsCapability = 'rows';
export const rowRequests = { next: 1, previous: -1, open: 0, openBeside: 2 } as const;
