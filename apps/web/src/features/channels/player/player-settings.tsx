import { CheckIcon, SettingsIcon } from 'lucide-react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { MENU_CONTENT_CLASSES, MENU_ITEM_CLASSES } from '../../../components/menu-styles';

/**
 * The player's quality menu: Auto (the picture, WebRTC or HLS as the connection allows) or the
 * sound alone for a poor connection (ADR 037). Drawn inside the player so that it shows in full screen.
 */
export function PlayerSettings({
  isAudioOnly,
  onAudioOnly,
  container,
  buttonClass,
}: {
  isAudioOnly: boolean;
  onAudioOnly: (isOn: boolean) => void;
  container: HTMLElement | null;
  buttonClass: string;
}) {
  const { t, i18n } = useTranslation('player');
  const choices = [
    { value: 'auto', label: t('quality.auto') },
    { value: 'audio', label: t('quality.audio') },
  ];
  return (
    <DropdownMenu.Root dir={i18n.dir()} modal={false}>
      <DropdownMenu.Trigger className={buttonClass} aria-label={t('settings')}>
        <SettingsIcon className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal container={container}>
        <DropdownMenu.Content align="end" side="top" sideOffset={6} className={MENU_CONTENT_CLASSES}>
          <DropdownMenu.Label className="px-3 py-1.5 text-xs font-semibold text-slate-600 dark:text-slate-400">
            {t('quality.title')}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={isAudioOnly ? 'audio' : 'auto'}
            onValueChange={(value) => onAudioOnly(value === 'audio')}
          >
            {choices.map((choice) => (
              <DropdownMenu.RadioItem key={choice.value} value={choice.value} className={MENU_ITEM_CLASSES}>
                <span className="inline-flex size-4 items-center justify-center">
                  <DropdownMenu.ItemIndicator>
                    <CheckIcon className="size-4" />
                  </DropdownMenu.ItemIndicator>
                </span>
                {choice.label}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
