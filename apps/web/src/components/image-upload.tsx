import { UploadIcon } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import { Button } from './button';

export const IMAGE_TYPES = 'image/jpeg,image/png,image/webp';
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Picks a picture and uploads it. The server checks what the file really is (a text file named
 * `.png` is refused there); its message is shown under the button. Only the size is checked here.
 */
export function ImageUpload({
  label,
  hint,
  preview,
  upload,
  onUploaded,
  extra,
  tooLarge,
}: {
  label: string;
  hint: string;
  /** Shown when the chosen file is over 5 MB, before anything is sent. */
  tooLarge: string;
  preview: ReactNode;
  upload(file: File): Promise<{ message: string }>;
  onUploaded?(): void;
  extra?: ReactNode;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | undefined>();
  const mutation = useMutation({
    mutationFn: upload,
    meta: { silent: true },
    onSuccess: (body) => {
      setError(undefined);
      toast.success(body.message);
      onUploaded?.();
    },
    onError: (failure) => setError(failure.message),
  });

  return (
    <div className="flex flex-wrap items-center gap-4">
      {preview}
      <div className="min-w-0 flex-1 space-y-1.5">
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={IMAGE_TYPES}
          className="sr-only"
          aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ''}`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            if (file.size > MAX_IMAGE_BYTES) {
              setError(tooLarge);
              return;
            }
            mutation.mutate(file);
          }}
        />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" isLoading={mutation.isPending} onClick={() => input.current?.click()}>
            <UploadIcon className="size-4" />
            {label}
          </Button>
          {extra}
        </div>
        <label htmlFor={inputId} className="sr-only">
          {label}
        </label>
        <p id={`${inputId}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
        {error && (
          <p id={`${inputId}-error`} role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
