// The panel's sentences. The three empty-state texts are the spec's words exactly; the rest are ours.
// (To be merged into the one catalogue in src/contract/messages.ts by its owner.)

export const contextMessages = {
  panelTitle: 'Select context',
  tabAll: 'All',
  tabRecent: 'Recent',
  tabFavorites: 'Favorites',
  businesses: 'Businesses',
  merchants: 'Merchants',
  back: 'Back to businesses',
  continueWithoutBusiness: 'Continue without business',
  liveOnly: 'Live only',
  searchLabel: 'Search businesses and merchants',
  searchPlaceholder: 'Name or id',
  searchButton: 'Search',
  searchResults: 'Search results',
  searching: 'Searching…',
  loading: 'Loading…',
  loadFailed: 'This list could not be loaded.',
  retry: 'Try again',
  noBusinesses: 'no businesses found',
  noMerchants: 'no merchants found',
  noFavorites: 'no favorites found',
  noRecent: 'no recent selections found',
  apply: 'Apply',
  applying: 'Applying…',
  cancel: 'Cancel',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  notLive: 'not live',
  addFavorite: 'Add to favorites',
  removeFavorite: 'Remove from favorites',
  keyboardHint: '↑↓ move · → or Enter open · ← back · F favourite · Ctrl+Enter apply',
  applyingContext: 'Applying the context…',
  recordNotFound: 'The requested record was not found.',
} as const;

export function noContextFor(searchTerm: string): string {
  return `no context for ${searchTerm}`;
}

export function searchTooShort(minimum: number): string {
  return `Type at least ${minimum} characters to search.`;
}

export function pageStatus(pageNumber: number, pages: number): string {
  return `Page ${pageNumber} of ${pages}`;
}

/** 'Alpha Trading › Alpha Online' for a recent or favourite entry. */
export function contextItemLabel(businessName: string, merchantName?: string): string {
  return merchantName ? `${businessName} › ${merchantName}` : businessName;
}
