/**
 * Upload card art: the card product, which asset (front, back, thumbnail) and a PNG. Checked
 * with the shared cardArtUploadRequest schema before sending.
 */
import { useEffect, useState, type SyntheticEvent } from 'react';
import {
  CARD_ART_ASSET_TYPES,
  cardProductLabelOf,
  cardArtUploadRequest,
  idOf,
  type CardProductResponse,
  type FileResponse,
} from '../../../../shared/bank/index.ts';
import type { CardArtUpload } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { SelectField } from '../../components/Field.tsx';
import { FilePicker, type MediaType } from '../../components/FilePicker.tsx';
import { InlineError } from '../../components/States.tsx';
import { fieldErrorsOf, validate } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';

const FIELDS = ['cardProductId', 'asset_type', 'file_id'] as const;

export interface CardArtFormProps {
  products: readonly CardProductResponse[];
  onSubmit: (
    cardProductId: string,
    request: { asset_type: (typeof CARD_ART_ASSET_TYPES)[number]; file_id: string },
  ) => Promise<CardArtUpload | null>;
  upload: (contentType: MediaType, bytes: Uint8Array) => Promise<FileResponse>;
}

export function CardArtForm({ products, onSubmit, upload }: CardArtFormProps) {
  const [cardProductId, setCardProductId] = useState(products[0]?.id ?? '');
  const [assetType, setAssetType] = useState<string>('front');
  const [fileId, setFileId] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(FIELDS);

  useEffect(() => {
    if (cardProductId === '' && products[0] !== undefined) setCardProductId(products[0].id);
  }, [products, cardProductId]);
  useEffect(
    () => () => {
      if (preview !== null) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const product = idOf('cardProduct').safeParse(cardProductId);
    const checked = validate(cardArtUploadRequest, { asset_type: assetType, file_id: fileId.trim() });
    if (!product.success || !checked.ok) {
      errors.setFieldErrors({
        ...(checked.ok ? {} : checked.errors),
        ...(product.success
          ? {}
          : { cardProductId: fieldErrorsOf(product.error.issues)[''] ?? 'must be a card product id' }),
      });
      return;
    }
    errors.clear();
    setBusy(true);
    try {
      const uploaded = await onSubmit(product.data, checked.value);
      if (uploaded !== null) setFileId('');
    } catch (reason) {
      errors.setServerError(reason, 'request.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Upload card art">
      {errors.form === null ? null : <InlineError error={errors.form} />}
      <div className="card-art-preview" role="group" aria-label="Preview">
        {preview === null ? <span>PNG preview</span> : <img src={preview} alt="Chosen card art" />}
      </div>
      <SelectField
        label="Card product"
        value={cardProductId}
        onChange={setCardProductId}
        options={products.map((product) => ({ value: product.id, label: cardProductLabelOf(product) }))}
        placeholder={products.length === 0 ? 'No card product' : undefined}
        error={errors.of('cardProductId')}
      />
      <SelectField
        label="Asset"
        value={assetType}
        onChange={setAssetType}
        options={CARD_ART_ASSET_TYPES}
        error={errors.of('asset_type')}
      />
      <FilePicker
        label="PNG file"
        fileId={fileId}
        onFileId={setFileId}
        accept={['image/png']}
        upload={upload}
        error={errors.of('file_id')}
        onChosen={(file) => {
          setPreview(file === null || file.type !== 'image/png' ? null : URL.createObjectURL(file));
        }}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Submit card art
        </Button>
      </div>
    </form>
  );
}
