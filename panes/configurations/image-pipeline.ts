// The browser's image upload (spec): pick a file, validate it (image/jpeg or image/png, at most 5,242,880 bytes;
// otherwise a danger toast for 5 s), resize it (quality 0.6, at most 800 × 600, rotated upright from its
// orientation data), upload it, delete the old image, then set the new reference. The checks are pure; the
// resize uses the browser's decoder and a canvas.
import { imageMessages, imageMimeTypes, imageResize, maxImageBytes, type ImageMimeType } from '../../src/contract/configurations.ts';
import { formatFileSize } from '../../src/format/file-size.ts';

export type ImageProblem = { message: string };

/** null when the file may be uploaded; else the spec's message for the danger toast. */
export function imageFileProblem(file: { type: string; size: number }): ImageProblem | null {
  if (!(imageMimeTypes as readonly string[]).includes(file.type)) return { message: imageMessages.invalidType };
  if (file.size > maxImageBytes) return { message: imageMessages.tooLarge(formatFileSize(maxImageBytes)) };
  if (file.size === 0) return { message: imageMessages.chooseImage };
  return null;
}

/** The largest size within maxWidth × maxHeight keeping the proportions; never enlarged. */
export function fitWithin(
  width: number,
  height: number,
  maxWidth: number = imageResize.maxWidth,
  maxHeight: number = imageResize.maxHeight,
): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Base64 of bytes, in chunks (a 5 MB spread into one call would overflow the argument stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  return btoa(binary);
}

/** Decodes (upright, from the orientation data), scales into 800 × 600 and re-encodes at quality 0.6. */
export async function resizeImage(file: Blob, mimeType: ImageMimeType): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const size = fitWithin(bitmap.width, bitmap.height);
    const canvas =
      typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(size.width, size.height) : Object.assign(document.createElement('canvas'), size);
    const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
    if (!context) throw new Error(imageMessages.invalidFormat);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    if (canvas instanceof HTMLCanvasElement) {
      return await new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(imageMessages.invalidFormat))), mimeType, imageResize.quality),
      );
    }
    return await canvas.convertToBlob({ type: mimeType, quality: imageResize.quality });
  } finally {
    bitmap.close();
  }
}

export type ImagePipelineDeps = {
  resize: (file: Blob, mimeType: ImageMimeType) => Promise<Blob>;
  upload: (body: { data: string; mimeType: ImageMimeType }) => Promise<{ imageReference: string }>;
  deleteOld: (imageReference: string) => Promise<void>;
  notify: (message: string) => void;
};

/**
 * The whole flow for one picked file: the new reference, or null when the file was refused (the user was told).
 * The old image is deleted only after the new one is stored; a failure to delete it does not lose the new one.
 */
export async function runImagePipeline(file: File, oldReference: string | null, deps: ImagePipelineDeps): Promise<string | null> {
  const problem = imageFileProblem(file);
  if (problem) {
    deps.notify(problem.message);
    return null;
  }
  const mimeType = file.type as ImageMimeType;
  let resized: Blob;
  try {
    resized = await deps.resize(file, mimeType);
  } catch {
    deps.notify(imageMessages.invalidFormat);
    return null;
  }
  const data = toBase64(new Uint8Array(await resized.arrayBuffer()));
  const { imageReference } = await deps.upload({ data, mimeType });
  if (oldReference) await deps.deleteOld(oldReference).catch(() => undefined);
  return imageReference;
}
