/**
 * Card products and card-art upload to the processor's UX toolkit (spec §2.3, §4.3): the
 * file must exist and be a PNG (by media type and by its bytes); the art is recorded on the
 * card product and `card_product.update` is emitted. Success answers `{}`.
 */
import {
  CARD_ART_MEDIA_TYPE,
  cardArtUploadRequest,
  timestampOf,
  type CardProduct,
  type FileRecord,
} from '../../shared/bank/index.ts';
import { json, jsonText } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { bodyOf, pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { isPng } from '../seed/pngImage.ts';
import { inTransaction } from '../store/database.ts';

export function registerCardProductRoutes(router: Router, context: SandboxContext): void {
  router.get('/cardproduct', (request) =>
    listRecords(context, request, { kind: 'card_product', path: '/cardproduct' }),
  );

  router.get('/cardproduct/:card_product_id', (request) =>
    jsonText(200, recordOr404(context, 'card_product', pathParameter(request, 'card_product_id'), 'card product')),
  );

  router.post('/cardproduct/:card_product_id/uxt_cardart', (request) => {
    const productId = pathParameter(request, 'card_product_id');
    return idempotent(context, request, `POST /cardproduct/${productId}/uxt_cardart`, () => {
      const product = context.records.read('card_product', productId) as CardProduct | undefined;
      if (product === undefined) throw new RequestProblem(404, `No card product with id ${productId}.`);
      const upload = bodyOf(request, cardArtUploadRequest);
      const file = context.records.read('file', upload.file_id) as FileRecord | undefined;
      if (file === undefined) {
        throw new RequestProblem(400, `Invalid request body: file_id: no file with id ${upload.file_id}.`);
      }
      const bytes = context.fileContents.get(file.id);
      const pngBytes = bytes !== undefined && isPng(bytes);
      if (file.content_type !== CARD_ART_MEDIA_TYPE || !pngBytes) {
        throw new RequestProblem(
          400,
          `Invalid request body: file_id: card art must be a PNG image, and file ${file.id} is ${file.content_type}${
            file.content_type === CARD_ART_MEDIA_TYPE ? ' but its bytes are not a PNG' : ''
          }.`,
        );
      }
      inTransaction(context.database, () => {
        context.records.replace('card_product', productId, {
          ...product,
          card_art: { ...product.card_art, [upload.asset_type]: file.id },
          // The real record's own fields for the front and back art.
          ...(upload.asset_type === 'front' ? { card_front_image_file_id: file.id } : {}),
          ...(upload.asset_type === 'back' ? { card_back_image_file_id: file.id } : {}),
          updated_at: timestampOf(new Date()),
        });
        context.events.publish({
          event: 'card_product.update',
          objectId: productId,
          objectPath: `/cardproduct/${productId}`,
        });
      });
      return json(200, {});
    });
  });
}
