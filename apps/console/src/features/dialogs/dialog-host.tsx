import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataSources } from '../data-sources/use-data-sources';
import { fileIdsOf, supportedElements, submissionOf } from './dialog-rules';
import type { DialogAnswer, DialogValues, OpenDialog } from './dialog-types';
import { InteractiveDialog } from './interactive-dialog';
import { closeDialog, showDialog, useOpenDialog } from './open-dialog-store';
import type { Lookup } from './dynamic-select';
import { lookupOptions, uploadToChannel, useDialogSubmit } from './use-dialog-submit';

/**
 * Draws the dialog an integration opened, for the channel on screen (submissions name it and its team, as
 * the reference's web app does). The integration's field errors keep it open; a clean answer closes it;
 * a `form` answer shows the next step. Cancel tells the integration only when the dialog asked for it.
 */
export function DialogHost({ channelId, teamId }: { channelId: string; teamId: string }) {
  const open = useOpenDialog();
  if (!open) return null;
  return <DialogForChannel key={`${open.trigger_id}:${open.dialog.callback_id ?? ''}:${open.dialog.state ?? ''}`} open={open} channelId={channelId} teamId={teamId} />;
}

function DialogForChannel({ open, channelId, teamId }: { open: OpenDialog; channelId: string; teamId: string }) {
  const client = useQueryClient();
  const submit = useDialogSubmit();
  const [answer, setAnswer] = useState<DialogAnswer>({});
  const elements = supportedElements(open.dialog.elements);
  const sources = useDataSources(teamId, elements.some((e) => e.type === 'select' && e.data_source === 'users'));
  const base = { url: open.url, callback_id: open.dialog.callback_id ?? '', state: open.dialog.state ?? '', channel_id: channelId, team_id: teamId };

  const onSubmit = (values: DialogValues) => {
    submit.mutate(
      { ...base, submission: submissionOf(elements, values), file_ids: fileIdsOf(elements, values), cancelled: false },
      {
        onSuccess: (result) => {
          if (result.errors || result.error) setAnswer(result);
          else if (result.type === 'form' && result.form) showDialog(client, { ...open, dialog: result.form, values });
          else closeDialog(client);
        },
      },
    );
  };
  // 11.1: a field with `refresh` changed: the integration answers the whole form again, values kept by name.
  const onRefresh = (values: DialogValues, field: string) => {
    if (!open.dialog.source_url) return;
    submit.mutate(
      { ...base, url: open.dialog.source_url, type: 'refresh', submission: { ...submissionOf(elements, values), selected_field: field }, cancelled: false },
      {
        onSuccess: (result) => {
          if (result.type === 'form' && result.form) showDialog(client, { ...open, dialog: result.form, values });
        },
      },
    );
  };
  const lookup: Lookup = (element, query) =>
    lookupOptions({ ...base, url: element.data_source_url ?? '', submission: { ...submissionOf(elements, {}), query, selected_field: element.name } });
  const onCancel = () => {
    if (open.dialog.notify_on_cancel) submit.mutate({ ...base, submission: {}, cancelled: true });
    closeDialog(client);
  };
  return (
    <InteractiveDialog
      dialog={open.dialog}
      sources={sources}
      pending={submit.isPending}
      serverErrors={answer.errors ?? {}}
      error={submit.error ?? (answer.error ? new Error(answer.error) : undefined)}
      onSubmit={onSubmit}
      onCancel={onCancel}
      lookup={lookup}
      upload={(files) => uploadToChannel(channelId, files)}
      onRefresh={onRefresh}
      {...(open.values ? { startValues: open.values } : {})}
    />
  );
}
