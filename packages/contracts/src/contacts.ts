import { z } from 'zod';
import { nestedData, successBody } from './envelope.js';
import { EmailSchema, IdSchema, LanguageFieldSchema, TokenSchema, optionalText, text } from './fields.js';
import { PageInfoSchema, UploadedFileSchema, formBoolean, pagination } from './form-values.js';

export const CONTACT_LIMITS = {
  name: 120,
  phone: 40,
  company: 120,
  notes: 2000,
  importRows: 5000,
} as const;

export const CONTACT_SORTS = ['name', 'email', 'company', 'created_at', 'updated_at'] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

/** The Meetcast account behind a contact's e-mail address, when there is one. */
export const ContactUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  avatar: z.string().nullable(),
});

export const ContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  company: z.string(),
  notes: z.string(),
  is_favourite: z.boolean(),
  user: ContactUserSchema.nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Contact = z.infer<typeof ContactSchema>;

const base = { token: TokenSchema, lng: LanguageFieldSchema };

/** An optional e-mail: an empty value means "no address". */
const OptionalEmailSchema = z.union([z.literal(''), EmailSchema]).optional();
const PhoneSchema = optionalText(CONTACT_LIMITS.phone).refine((value) => !value || /^[+0-9 ().\-/#*x]*$/i.test(value), {
  message: 'phone',
});

export const GetContactsInputSchema = z.object({
  ...base,
  search: optionalText(100),
  sort: z.enum(CONTACT_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  favourites: formBoolean.optional(),
  ...pagination,
});
export type GetContactsInput = z.input<typeof GetContactsInputSchema>;
export const ContactListBodySchema = successBody(PageInfoSchema.extend({ data: z.array(ContactSchema) }));
export type ContactList = z.infer<typeof ContactListBodySchema>['data'];

export const AddContactInputSchema = z.object({
  ...base,
  name: text({ max: CONTACT_LIMITS.name }),
  email: OptionalEmailSchema,
  phone: PhoneSchema,
  company: optionalText(CONTACT_LIMITS.company),
  notes: optionalText(CONTACT_LIMITS.notes),
  is_favourite: formBoolean.optional(),
});
export type AddContactInput = z.input<typeof AddContactInputSchema>;

export const UpdateContactInputSchema = z.object({
  ...base,
  id: IdSchema,
  name: text({ max: CONTACT_LIMITS.name }).optional(),
  email: OptionalEmailSchema,
  phone: PhoneSchema,
  company: optionalText(CONTACT_LIMITS.company),
  notes: optionalText(CONTACT_LIMITS.notes),
  is_favourite: formBoolean.optional(),
});
export type UpdateContactInput = z.input<typeof UpdateContactInputSchema>;

export const ContactIdInputSchema = z.object({ ...base, id: IdSchema });
export const ContactBodySchema = successBody(ContactSchema);

export const IMPORT_ROW_STATUSES = ['added', 'merged', 'skipped'] as const;
export const ImportRowSchema = z.object({
  /** 1-based: the data row in a CSV file (header excluded) or the card's position in a vCard file. */
  row: z.number().int(),
  status: z.enum(IMPORT_ROW_STATUSES),
  name: z.string(),
  email: z.string().nullable(),
  /** Why a row was skipped or what a merge did, in the request's language. */
  reason: z.string().nullable(),
});
export type ImportRow = z.infer<typeof ImportRowSchema>;

export const ImportContactsInputSchema = z.object({ ...base, file: UploadedFileSchema.optional() });
export const ImportReportSchema = z.object({
  format: z.enum(['csv', 'vcard']),
  added: z.number().int(),
  merged: z.number().int(),
  skipped: z.number().int(),
  rows: z.array(ImportRowSchema),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;
export const ImportContactsBodySchema = successBody(ImportReportSchema);

export const ExportContactsInputSchema = z.object(base);
export const ExportContactsBodySchema = successBody(
  z.object({ filename: z.string(), content_type: z.literal('text/csv'), csv: z.string() }),
);

/** "Call now": an instant meeting with the contact's Meetcast user, who is notified in the app. */
export const CallContactBodySchema = successBody(
  z.object({ url_slug: z.string(), password: z.string().optional(), meeting_id: z.number().int() }),
);

export const InviteContactInputSchema = z.object({ ...base, id: IdSchema, meeting_id: IdSchema });

/** The upcoming meetings a user hosts, offered by "Invite to meeting". */
export const InvitableMeetingSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url_slug: z.string(),
  start_time: z.number().int(),
  end_time: z.number().int(),
});
export type InvitableMeeting = z.infer<typeof InvitableMeetingSchema>;
export const InvitableMeetingsBodySchema = nestedData(z.array(InvitableMeetingSchema));
