// The inbox row to focus when the inbox shows again (the notification last opened, or marked): the list comes back
// with that row focused, so Escape from a notification lands where the reader left. Focus is not server data.
export const inboxFocus: { reference: string | null; page: string } = { reference: null, page: '' };
