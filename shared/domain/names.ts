/** Names people type: farms, houses, flocks. */

/** Display form: Unicode-normalized (NFC), trimmed, inner runs of white space collapsed to one space. */
export const displayName = (name: string): string => name.normalize('NFC').trim().replace(/\s+/g, ' ');

/** Comparison form (uniqueness, sort order): the display form, case-insensitive. */
export const nameKey = (name: string): string => displayName(name).toLowerCase();
