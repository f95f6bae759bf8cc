/** Dates as the pages write them, in GOV.UK style: "4 June 1989". */

/** An ISO date (YYYY-MM-DD) in words; anything else as it was given, so a page never shows "Invalid Date". */
export const longDate = (iso: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(iso)
    ? new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      })
    : iso;
