import type { Meeting } from '@meetcast/contracts';
import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { Spinner } from '../../components/spinner';
import { InstantMeetingForm, INSTANT_FORM_ID } from './instant-meeting-form';
import type { SchedulePreset } from './schedule-meeting-form';
import { useSlugCheck } from './use-slug-check';
import { useTimeZoneDetection } from './use-time-zone-detection';

// The scheduling form brings flatpickr; it loads the first time the dialog opens.
const ScheduleMeetingForm = lazy(() => import('./schedule-meeting-form'));

/**
 * The two meeting dialogs the sidebar opens: "Schedule a meeting" and the instant
 * meeting's "Enter your meeting name". This file is their frame: who opens them and what they say.
 * The meetings feature puts its forms into the `children` slots below and gives Start Meeting its form
 * (`startFormId`), so the button submits that form.
 */
export type MeetingDialog = 'schedule' | 'instant';

interface MeetingDialogsApi {
  /** Opens a dialog; the scheduling one may start with a chosen time (a calendar slot). */
  open(dialog: MeetingDialog, preset?: SchedulePreset): void;
  /** Opens the scheduling form on an existing meeting (host only). */
  openEdit(meeting: Meeting): void;
  close(): void;
}

const MeetingDialogsContext = createContext<MeetingDialogsApi | null>(null);

export function useMeetingDialogs(): MeetingDialogsApi {
  const api = useContext(MeetingDialogsContext);
  if (!api) throw new Error('useMeetingDialogs needs a MeetingDialogsProvider');
  return api;
}

export interface ScheduleMeetingDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Closing asks first (something was typed). */
  isDirty?: boolean;
  /** The scheduling form. */
  children?: ReactNode;
}

export function ScheduleMeetingDialog({ open, onOpenChange, isDirty, children }: ScheduleMeetingDialogProps) {
  const { t } = useTranslation('shell');
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      isDirty={isDirty}
      title={t('dialogs.schedule.title')}
      className="max-w-2xl"
    >
      {children}
    </Dialog>
  );
}

export interface InstantMeetingDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The form with the meeting's name (and slug). */
  children?: ReactNode;
  /** id of the form that Start Meeting submits; without one the button stays disabled. */
  startFormId?: string;
  /** Disables Start Meeting, e.g. while the slug has an error. */
  isStartDisabled?: boolean;
  isStarting?: boolean;
  isDirty?: boolean;
}

export function InstantMeetingDialog({
  open,
  onOpenChange,
  children,
  startFormId,
  isStartDisabled = false,
  isStarting = false,
  isDirty,
}: InstantMeetingDialogProps) {
  const { t } = useTranslation('shell');
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      isDirty={isDirty}
      title={t('dialogs.instant.title')}
      description={t('dialogs.instant.text')}
      footer={
        <Button type="submit" form={startFormId} disabled={!startFormId || isStartDisabled} isLoading={isStarting}>
          {t('dialogs.instant.start')}
        </Button>
      }
    >
      {children}
    </Dialog>
  );
}

function FormFallback() {
  return (
    <div className="flex justify-center py-10">
      <Spinner className="size-6" />
    </div>
  );
}

/** Holds which dialog is open; the main layout wraps every signed-in page in it. */
export function MeetingDialogsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('meetings');
  const [openDialog, setOpenDialog] = useState<MeetingDialog | 'edit' | null>(null);
  const [preset, setPreset] = useState<SchedulePreset | undefined>();
  const [editing, setEditing] = useState<Meeting | undefined>();
  const [isStarting, setIsStarting] = useState(false);
  const [isDirty, setIsDirty] = useState(false);
  const instantSlug = useSlugCheck();
  useTimeZoneDetection();
  const open = useCallback((dialog: MeetingDialog, chosen?: SchedulePreset) => {
    setPreset(chosen);
    setIsDirty(false);
    setOpenDialog(dialog);
  }, []);
  const openEdit = useCallback((meeting: Meeting) => {
    setEditing(meeting);
    setIsDirty(false);
    setOpenDialog('edit');
  }, []);
  const close = useCallback(() => setOpenDialog(null), []);
  const api = useMemo(() => ({ open, openEdit, close }), [open, openEdit, close]);
  const onOpenChange = (dialog: MeetingDialog | 'edit') => (isOpen: boolean) => {
    if (!isOpen && dialog === 'instant') instantSlug.reset();
    setOpenDialog(isOpen ? dialog : null);
  };
  return (
    <MeetingDialogsContext.Provider value={api}>
      {children}
      <ScheduleMeetingDialog open={openDialog === 'schedule'} onOpenChange={onOpenChange('schedule')} isDirty={isDirty}>
        {openDialog === 'schedule' && (
          <Suspense fallback={<FormFallback />}>
            <ScheduleMeetingForm preset={preset} onClose={close} onDirtyChange={setIsDirty} />
          </Suspense>
        )}
      </ScheduleMeetingDialog>
      <Dialog
        open={openDialog === 'edit'}
        onOpenChange={onOpenChange('edit')}
        isDirty={isDirty}
        title={t('edit.title')}
        className="max-w-2xl"
      >
        {openDialog === 'edit' && editing && (
          <Suspense fallback={<FormFallback />}>
            <ScheduleMeetingForm meeting={editing} onClose={close} onDirtyChange={setIsDirty} />
          </Suspense>
        )}
      </Dialog>
      <InstantMeetingDialog
        open={openDialog === 'instant'}
        onOpenChange={onOpenChange('instant')}
        startFormId={INSTANT_FORM_ID}
        isStartDisabled={Boolean(instantSlug.error)}
        isStarting={isStarting}
        isDirty={isDirty}
      >
        {openDialog === 'instant' && (
          <InstantMeetingForm
            slugCheck={instantSlug}
            onBusyChange={setIsStarting}
            onDirtyChange={setIsDirty}
            onStarted={() => {
              instantSlug.reset();
              close();
            }}
          />
        )}
      </InstantMeetingDialog>
    </MeetingDialogsContext.Provider>
  );
}
