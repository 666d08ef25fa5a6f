export * from './streams';
export * from './entities.service';
export * from './documents.service';
export * from './file-type';
export * from './onboarding.service';
export * from './kyc-review.process-manager';
